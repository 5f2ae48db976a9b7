package worker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/slots"
)

// redteamPrelude, run by a hostile command agent in its worktree, plants
// a program ($evil) in its admin dir for bh's git to run outside the
// sandbox. Were it run, it would write to $REDTEAM_MARKER: a file of the
// test's, named in the worker's environment only (never the agent's).
const redteamPrelude = `admin=$(sed -n 's/^gitdir: //p' .git)
common=$(cd "$admin" && cd "$(cat commondir)" && pwd)
evil=$admin/evil.sh
printf '#!/bin/sh\necho "$0 $*" >>"$REDTEAM_MARKER"\ncat\n' >"$evil"
chmod +x "$evil"
gitfiles() { cat .git "$admin/commondir" "$admin/gitdir" "$admin/config.worktree" "$admin/HEAD" 2>&1 | cksum; }
evilrepo() { # a git dir of the agent's, whose config runs $evil
	git clone -q --bare "$common" "$1" && git -C "$1" config core.bare false &&
	git -C "$1" config core.fsmonitor "$evil" && git -C "$1" config core.hooksPath "$admin/hooks" && cp "$admin/index" "$1/index"
	mkdir -p "$admin/hooks"; for h in pre-commit commit-msg post-commit post-checkout post-rewrite; do cp "$evil" "$admin/hooks/$h"; done
}
`

// redteamGitAttacks are the agent's ways to make bh's own git run its
// program: each a shell snippet after redteamPrelude; userWtConfig is a
// user whose repository reads config.worktree (sparse checkout and
// worktree tooling set extensions.worktreeConfig).
var redteamGitAttacks = []struct {
	name         string
	script       string
	userWtConfig bool
}{
	{"dotgit redirect with core.fsmonitor", `evilrepo "$admin/evil.git"; printf 'gitdir: %s\n' "$admin/evil.git" >.git`, false},
	{"commondir redirect", `evilrepo "$admin/evil.git"; printf '%s\n' "$admin/evil.git" >"$admin/commondir"`, false},
	{"core.hooksPath", `evilrepo "$admin/evil.git"; git config core.hooksPath "$admin/hooks"
printf '[core]\n\thooksPath = %s\n' "$admin/hooks" >"$admin/config.worktree"`, true},
	{"config.worktree with core.fsmonitor", `git config extensions.worktreeConfig true; git config --worktree core.fsmonitor "$evil"
printf '[extensions]\n\tworktreeConfig = true\n[core]\n\tfsmonitor = %s\n' "$evil" >"$admin/config.worktree"`, true},
	{"config.worktree without the user's extensions.worktreeConfig", `git config extensions.worktreeConfig true
printf '[extensions]\n\tworktreeConfig = true\n[core]\n\tfsmonitor = %s\n' "$evil" >"$admin/config.worktree"`, false},
	{"filter driver in .gitattributes", `printf '* filter=evil\n' >.gitattributes
printf '[filter "evil"]\n\tclean = %s\n\tsmudge = %s\n' "$evil" "$evil" >"$admin/config.worktree"`, true},
	{"dotgit symlink to the main repository", `rm -f .git; ln -s "$common" .git`, false},
	{"HEAD moved to the user's branch", `printf 'ref: %s\n' "$(git -C "$common" symbolic-ref HEAD)" >"$admin/HEAD"`, false},
	{"nested repository with core.fsmonitor", `git init -q sub && echo one >sub/f && printf '* filter=evil\n' >sub/.gitattributes &&
git -C sub add -A && git -C sub -c user.name=a -c user.email=a@b commit -q -m sub &&
git -C sub config core.fsmonitor "$evil" && git -C sub config filter.evil.clean "$evil" && echo two >sub/f && git add sub`, false},
}

// TestRedteamGit: a sandboxed agent (and, outside -short, one run
// unsandboxed, where bh's git alone stands in the way) tries each way to
// have bh's git, outside its sandbox, run its program. It never runs; the
// task closes with its work landed, and the next task in the same pool
// slot runs clean, in a slot with bh's git files.
func TestRedteamGit(t *testing.T) {
	needBwrap(t)
	// One marker for every attack, that they may run side by side: a line
	// in it names the admin dir, and so the attack, whose program ran.
	marker := filepath.Join(t.TempDir(), "ran")
	t.Setenv("REDTEAM_MARKER", marker)
	for _, mode := range []string{"sandboxed", task.SandboxOff} {
		if mode == task.SandboxOff && testing.Short() {
			continue
		}
		for _, at := range redteamGitAttacks {
			t.Run(mode+"/"+at.name, func(t *testing.T) {
				t.Parallel()
				s := newStore(t)
				if at.userWtConfig {
					gitT(t, s.Root, "config", "extensions.worktreeConfig", "true")
				}
				if mode == task.SandboxOff {
					s.Config.Sandbox = config.SandboxConfig{Mode: task.SandboxOff}
				}
				opt := Options{Env: []string{"HOME=" + t.TempDir()}}
				script := redteamPrelude + "before=$(gitfiles)\n{\n" + at.script + "\n} >/dev/null 2>&1\n" +
					`if [ "$(gitfiles)" = "$before" ]; then echo kept >attack.txt; else echo rewritten >attack.txt; fi` + "\n" +
					"echo written >work.txt\necho '{\"status\":\"completed\",\"summary\":\"attacked\"}'\n"
				s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c", script}}
				tk := addTask(t, s, "attack")
				evs := runWith(t, s, opt)
				checkRedteamRun(t, s, tk.ID, marker, "work.txt")
				// Proof that the attack was made: unsandboxed, the agent
				// rewrote the git files it aimed at; sandboxed, it could not.
				want := "kept\n"
				head := strings.HasPrefix(at.name, "HEAD") // HEAD is the agent's to write, sandbox or not
				if mode == task.SandboxOff && !strings.HasPrefix(at.name, "nested") || head {
					want = "rewritten\n"
				}
				if got := readFile(t, s.Root, "attack.txt"); got != want {
					t.Errorf("the agent's git files were %q, want %q", got, want)
				}
				tampered := false
				for _, e := range evs {
					tampered = tampered || e.Kind == Warning && strings.Contains(e.Summary, "tampered")
				}
				t.Logf("bh reported the worktree tampered with: %v", tampered)
				if head && !tampered {
					t.Errorf("a HEAD moved to the user's branch is not reported")
				}

				s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c",
					"echo next >next.txt\necho '{\"status\":\"completed\",\"summary\":\"next\"}'\n"}}
				next := addTask(t, s, "next")
				for _, e := range runWith(t, s, opt) {
					if e.Kind == Warning {
						t.Errorf("the next task's run warns: %s", e.Summary)
					}
				}
				checkRedteamRun(t, s, next.ID, marker, "next.txt")
				r := mustRepo(t, s)
				slots, err := slots.List(s, r)
				if err != nil || len(slots) != 1 || filepath.Base(slots[0].Path) != "1" {
					t.Fatalf("the two tasks did not share slot 1: %+v, %v", slots, err)
				}
				if what := slots[0].Tampered; len(what) > 0 {
					t.Errorf("the slot's git files are not bh's after the next task: %q", what)
				}
			})
		}
	}
}

// checkRedteamRun: the task closed with its file landed on the user's
// checkout, and the agent's program never ran.
func checkRedteamRun(t *testing.T, s *store.Store, id, marker, file string) {
	t.Helper()
	if got := getTask(t, s, id); got.State != task.Closed {
		t.Fatalf("%s is %s: %s %v", id, got.State, got.Summary, got.Issues)
	}
	if !exists(s.Root, file) {
		t.Errorf("%s's work (%s) did not land", id, file)
	}
	if subject := gitT(t, s.Root, "log", "-1", "--format=%s", "--", file); !strings.HasPrefix(subject, id+": ") {
		t.Errorf("%s came onto the user's branch by %q, not by bh's landing", file, subject)
	}
	if data, err := os.ReadFile(marker); err == nil {
		t.Fatalf("bh's git ran the agent's program outside the sandbox:\n%s", data)
	}
}
