package worker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/slots"
)

// subStore is newStore with lib/ a submodule, made from a local
// repository and initialised in the user's tree.
func subStore(t *testing.T) *store.Store {
	t.Helper()
	s := newStore(t)
	lib := filepath.Join(t.TempDir(), "lib-origin")
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	gitT(t, lib, "init", "-q", "-b", "main")
	writeFile(t, lib, "lib.go", "package lib\n")
	gitT(t, lib, "add", "-A")
	gitT(t, lib, "commit", "-q", "-m", "lib")
	gitT(t, s.Root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib")
	gitT(t, s.Root, "commit", "-q", "-m", "lib as a submodule")
	return s
}

func subAgent(s *store.Store, script string) {
	s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c",
		"if test -f lib/lib.go; then echo yes >saw.txt; else echo no >saw.txt; fi\n" + script +
			"\necho '{\"status\":\"completed\",\"summary\":\"done\"}'\n"}}
}

// A task's worktree has its submodules checked out; work beside them
// lands as any other.
func TestSubmoduleCheckedOutAndWorkBesideLands(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	s := subStore(t)
	link := gitT(t, s.Root, "ls-tree", "HEAD", "lib")
	subAgent(s, "echo beside >beside.txt")
	tk := addTask(t, s, "work beside lib")
	runWith(t, s, Options{Env: []string{"HOME=" + t.TempDir()}})
	if got := getTask(t, s, tk.ID); got.State != task.Closed {
		t.Fatalf("%s is %s: %s %v", tk.ID, got.State, got.Summary, got.Issues)
	}
	if got := readFile(t, s.Root, "saw.txt"); got != "yes\n" {
		t.Errorf("the agent saw lib/ checked out: %q", got)
	}
	if got := readFile(t, s.Root, "beside.txt"); got != "beside\n" {
		t.Errorf("beside.txt on main: %q", got)
	}
	if got := gitT(t, s.Root, "ls-tree", "HEAD", "lib"); got != link {
		t.Errorf("the gitlink moved: %q, was %q", got, link)
	}
}

// An agent's edit inside a submodule is neither landed (its commits would
// live in the worktree alone) nor dropped: the task waits with the
// landing question naming the submodule, the edit kept in its worktree.
// Answered "land", the rest lands without it.
func TestSubmoduleEditInsideAsksAndIsKept(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	s := subStore(t)
	link := gitT(t, s.Root, "ls-tree", "HEAD", "lib")
	subAgent(s, "echo '// edited' >>lib/lib.go\ngit -C lib -c user.name=a -c user.email=a@b commit -q -am inside\ngit add lib\n"+
		"git -C lib rev-list --count HEAD >commits.txt\necho beside >beside.txt")
	tk := addTask(t, s, "edit lib")
	opt := Options{Env: []string{"HOME=" + t.TempDir()}}
	runWith(t, s, opt)
	got := getTask(t, s, tk.ID)
	if got.State != task.AwaitingInput {
		t.Fatalf("%s is %s: %s %v", tk.ID, got.State, got.Summary, got.Issues)
	}
	q := pendingOf(t, got)
	if !ending.IsLandQuestion(&q) || !strings.Contains(q.Question, tk.ID+" changed files inside submodule lib/: bh does not land submodule changes") {
		t.Fatalf("question %+v, want the landing question naming lib/", q)
	}
	wt := slots.WorktreePath(s, mustRepo(t, s), tk.ID)
	if b, err := os.ReadFile(filepath.Join(wt, "lib", "lib.go")); err != nil || !strings.Contains(string(b), "// edited") {
		t.Fatalf("the edit inside lib/ is gone from the worktree: %q, %v", b, err)
	}
	if exists(s.Root, "beside.txt") {
		t.Fatal("the work landed while its question waits")
	}

	if _, err := Respond(s, tk.ID, []task.Answer{{QuestionID: q.ID, Values: []string{ending.LandNow}}}, "alice"); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, opt)
	if got := getTask(t, s, tk.ID); got.State != task.Closed {
		t.Fatalf("after land: %s %s %v", got.State, got.Summary, got.Issues)
	}
	if got := readFile(t, s.Root, "beside.txt"); got != "beside\n" {
		t.Errorf("beside.txt on main: %q", got)
	}
	if got := readFile(t, s.Root, "commits.txt"); got != "2\n" {
		t.Errorf("the agent's commit inside lib/ was not made: %q commits", got)
	}
	if got := gitT(t, s.Root, "ls-tree", "HEAD", "lib"); got != link {
		t.Errorf("the gitlink landed moved: %q, was %q", got, link)
	}
	if got := readFile(t, s.Root, "lib/lib.go"); got != "package lib\n" {
		t.Errorf("the user's lib/lib.go: %q", got)
	}
}

// A submodule's git dir is the agent's to write (in its worktree's admin
// dir): one whose config names a file monitor and a filter driver of the
// agent's, with an edit inside to make bh look, never has bh's git run
// them outside the sandbox; the task waits and then lands as any other.
func TestRedteamSubmoduleConfig(t *testing.T) {
	needBwrap(t)
	marker := filepath.Join(t.TempDir(), "ran")
	t.Setenv("REDTEAM_MARKER", marker)
	s := subStore(t)
	subAgent(s, `admin=$(sed -n 's/^gitdir: //p' .git)
evil=$admin/evil.sh
printf '#!/bin/sh\necho "$0 $*" >>"$REDTEAM_MARKER"\ncat\n' >"$evil"
chmod +x "$evil"
git -C lib config core.fsmonitor "$evil"; git -C lib config filter.evil.clean "$evil"; git -C lib config core.hooksPath "$admin"
printf '* filter=evil\n' >lib/.gitattributes
echo '// edited' >>lib/lib.go
git -C lib config core.fsmonitor >attack.txt
echo beside >beside.txt`)
	tk := addTask(t, s, "attack through lib")
	opt := Options{Env: []string{"HOME=" + t.TempDir()}}
	runWith(t, s, opt)
	got := getTask(t, s, tk.ID)
	if got.State != task.AwaitingInput {
		t.Fatalf("%s is %s: %s %v", tk.ID, got.State, got.Summary, got.Issues)
	}
	if _, err := Respond(s, tk.ID, []task.Answer{{QuestionID: pendingOf(t, got).ID, Values: []string{ending.LandNow}}}, "alice"); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, opt)
	checkRedteamRun(t, s, tk.ID, marker, "beside.txt")
	if got := readFile(t, s.Root, "attack.txt"); !strings.HasSuffix(got, "evil.sh\n") {
		t.Errorf("the agent's file monitor was not set in lib's config: %q", got)
	}
}
