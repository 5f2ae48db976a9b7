package worker

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/slots"
)

// TestPoolSlotLeaksNothingToTheNextTask: a task that fails leaves its slot
// full of everything a task can leave (untracked files, ignored build
// output, a staged file, a tracked file changed, a stash, a rebase in
// progress, its branch); the next task gets the same slot, warm, and
// finds none of it but worktree.copy's file and worktree.keep's cache.
func TestPoolSlotLeaksNothingToTheNextTask(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	writeFile(t, s.Root, ".gitignore", ".env\nbuild/\nnode_modules/\n")
	writeFile(t, s.Root, "tracked.txt", "as committed\n")
	gitT(t, s.Root, "add", ".gitignore", "tracked.txt")
	gitT(t, s.Root, "commit", "-q", "-m", "files")
	writeFile(t, s.Root, ".env", "SECRET=1\n")
	s.Config.Worktree.Copy = []string{".env"}
	s.Config.Worktree.Keep = []string{"node_modules/"}
	a := addTask(t, s, "Makes a mess")
	var dirs []string
	mess := agent.RunnerFunc(func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		dirs = append(dirs, req.Dir)
		for name, body := range map[string]string{"untracked.txt": "u\n", "build/out.o": "obj\n",
			"node_modules/dep/index.js": "dep\n", "stashed.txt": "s\n"} {
			writeFile(t, req.Dir, name, body)
		}
		gitT(t, req.Dir, "add", "stashed.txt")
		gitT(t, req.Dir, "stash", "push", "-q", "-m", "agent's stash")
		writeFile(t, req.Dir, "tracked.txt", "changed\n")
		gitT(t, req.Dir, "-c", "user.name=a", "-c", "user.email=a@a", "commit", "-q", "-am", "side")
		gitT(t, req.Dir, "checkout", "-q", "HEAD~1") // a rebase left stopped, HEAD detached
		writeFile(t, req.Dir, "tracked.txt", "other\n")
		gitT(t, req.Dir, "-c", "user.name=a", "-c", "user.email=a@a", "commit", "-q", "-am", "other")
		if out, err := exec.Command("git", "-C", req.Dir, "rebase", slots.Branch(a.ID)).CombinedOutput(); err == nil {
			t.Fatalf("the rebase did not stop: %s", out)
		}
		writeFile(t, req.Dir, "staged.txt", "staged\n")
		gitT(t, req.Dir, "add", "staged.txt")
		return &agent.Outcome{Result: agent.Result{Status: agent.StatusFailed, Summary: "gave up"}, SessionID: req.SessionID}, nil
	})
	evs := runWith(t, s, Options{Runner: mess, Once: true})
	if got := getTask(t, s, a.ID); got.State != task.Failed {
		t.Fatalf("the messy task is %s, want failed: %+v", got.State, evs)
	}

	b := addTask(t, s, "Looks around")
	var seen map[string]string
	look := agent.RunnerFunc(func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		dirs = append(dirs, req.Dir)
		seen = map[string]string{
			"status":  gitT(t, req.Dir, "status", "--porcelain", "--ignored", "--untracked-files=all"),
			"branch":  gitT(t, req.Dir, "rev-parse", "--abbrev-ref", "HEAD"),
			"head":    gitT(t, req.Dir, "rev-parse", "HEAD"),
			"staged":  gitT(t, req.Dir, "diff", "--cached", "--name-only", "HEAD"),
			"stashes": gitT(t, req.Dir, "stash", "list"),
			"rebase":  fmt.Sprint(exists(gitT(t, req.Dir, "rev-parse", "--absolute-git-dir"), "rebase-merge")),
			"tracked": readFile(t, req.Dir, "tracked.txt"),
		}
		return &agent.Outcome{Result: done("looked"), SessionID: req.SessionID}, nil
	})
	base := gitT(t, s.Root, "rev-parse", "HEAD")
	runWith(t, s, Options{Runner: look, Once: true})
	if len(dirs) != 2 || dirs[0] != dirs[1] || filepath.Base(filepath.Dir(dirs[0])) != "pool" {
		t.Fatalf("the tasks ran in %v, want one pool slot in turn", dirs)
	}
	want := map[string]string{
		"status":  "!! .env\n!! node_modules/dep/index.js",
		"branch":  slots.Branch(b.ID),
		"head":    base,
		"staged":  "",
		"stashes": "",
		"rebase":  "false",
		"tracked": "as committed\n",
	}
	for k, v := range want {
		if seen[k] != v {
			t.Errorf("%s in the next task's slot: %q, want %q", k, seen[k], v)
		}
	}
	if branches := gitT(t, s.Root, "branch", "--list", "bh/*"); strings.Contains(branches, a.ID) {
		t.Errorf("the failed task's branch is left: %s", branches)
	}
	if got := getTask(t, s, b.ID).State; got != task.Closed {
		t.Errorf("the next task is %s, want closed", got)
	}
}
