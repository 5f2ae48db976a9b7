package git

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// evilScript is a program an agent plants for bh's git to run: it writes
// down that it ran in marker, outside the worktree.
func evilScript(t *testing.T) (script, marker string) {
	t.Helper()
	dir := t.TempDir()
	script, marker = filepath.Join(dir, "evil.sh"), filepath.Join(dir, "ran")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho \"$0 $* in $PWD under $(tr '\\0' ' ' </proc/$PPID/cmdline)\" >>"+marker+"\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, marker
}

// plainGit runs git in dir as a user (or an unguarded bh) would: whatever
// dir's .git says; its error is the caller's to judge.
func plainGit(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	return cmd.Run()
}

// An agent's worktree is poisoned in each way an agent can write (its
// files, its admin dir): plain git there runs the agent's program (the
// proof), bh's own git never does, sandbox or not; the work still
// commits onto the task's branch, nothing else moves, no hook runs (the
// user's own run sandboxed, from the main tree: CommitHooks), and the
// files not bh's are rewritten and reported.
func TestGuardedGitRunsNothingAnAgentPlanted(t *testing.T) {
	for _, tt := range []struct {
		name     string
		setup    func(t *testing.T, r *Repo) // the user's own configuration
		plant    func(t *testing.T, r *Repo, wt *Worktree, script string)
		proof    []string // a plain git command that runs the script
		tampered bool     // bh finds git files not its own
	}{
		{"the .git file names a git dir the agent built", nil, func(t *testing.T, r *Repo, wt *Worktree, script string) {
			evil := filepath.Join(wt.Path, ".evil")
			gittest.Git(t, r.Root, "clone", "-q", "--bare", r.Root, evil)
			gittest.Git(t, evil, "config", "core.bare", "false")
			gittest.Git(t, evil, "config", "core.fsmonitor", script)
			plantFile(t, filepath.Join(wt.GitDir(), "index"), filepath.Join(evil, "index"))
			gittest.Write(t, wt.Path, ".git", "gitdir: "+evil+"\n")
		}, []string{"status"}, true},
		{"the commondir names a common dir the agent built", nil, func(t *testing.T, r *Repo, wt *Worktree, script string) {
			evil := filepath.Join(wt.Path, ".evil")
			gittest.Git(t, r.Root, "clone", "-q", "--bare", r.Root, evil)
			gittest.Git(t, evil, "config", "core.bare", "false")
			gittest.Git(t, evil, "config", "core.fsmonitor", script)
			gittest.Write(t, wt.GitDir(), "commondir", evil+"\n")
		}, []string{"status"}, true},
		{"core.hooksPath in a config.worktree", withWorktreeConfig, func(t *testing.T, r *Repo, wt *Worktree, script string) {
			hooks := filepath.Join(wt.Path, ".hooks")
			gittest.Write(t, hooks, "pre-commit", "")
			plantFile(t, script, filepath.Join(hooks, "pre-commit"))
			gittest.Write(t, wt.GitDir(), "config.worktree", "[core]\n\thooksPath = "+hooks+"\n")
		}, []string{"commit", "-q", "--allow-empty", "-m", "x"}, true},
		{"core.fsmonitor in a config.worktree", withWorktreeConfig, func(t *testing.T, r *Repo, wt *Worktree, script string) {
			gittest.Write(t, wt.GitDir(), "config.worktree", "[core]\n\tfsmonitor = "+script+"\n")
		}, []string{"status"}, true},
		{"a config.worktree the user's config does not read", nil, func(t *testing.T, r *Repo, wt *Worktree, script string) {
			gittest.Write(t, wt.GitDir(), "config.worktree", "[extensions]\n\tworktreeConfig = true\n[core]\n\tfsmonitor = "+script+"\n")
			if plainGit(wt.Path, "config", "--worktree", "extensions.worktreeConfig", "true") == nil {
				t.Log("(the agent's git config --worktree worked)")
			}
		}, nil, true},
		{"a filter driver named in .gitattributes", withWorktreeConfig, func(t *testing.T, r *Repo, wt *Worktree, script string) {
			gittest.Write(t, wt.Path, ".gitattributes", "* filter=evil\n")
			gittest.Write(t, wt.GitDir(), "config.worktree", "[filter \"evil\"]\n\tclean = "+script+"\n")
		}, []string{"add", "-A"}, true},
		{"the user's relative core.hooksPath, rewritten in the worktree", func(t *testing.T, r *Repo) {
			gittest.Write(t, r.Root, ".githooks/pre-commit", "#!/bin/sh\ntouch "+filepath.Join(r.Root, "..", "user-hook-ran")+"\n")
			os.Chmod(filepath.Join(r.Root, ".githooks/pre-commit"), 0o755)
			gittest.Git(t, r.Root, "add", ".githooks")
			gittest.Git(t, r.Root, "commit", "-q", "-m", "hooks")
			gittest.Git(t, r.Root, "config", "core.hooksPath", ".githooks")
		}, func(t *testing.T, r *Repo, wt *Worktree, script string) {
			plantFile(t, script, filepath.Join(wt.Path, ".githooks/pre-commit"))
		}, []string{"commit", "-q", "--allow-empty", "-m", "x"}, false},
		{"a nested repository with core.fsmonitor and a filter", nil, func(t *testing.T, r *Repo, wt *Worktree, script string) {
			sub := filepath.Join(wt.Path, "sub")
			gittest.Git(t, wt.Path, "init", "-q", "sub")
			gittest.Write(t, sub, "f.txt", "one\n")
			gittest.Write(t, sub, ".gitattributes", "* filter=evil\n")
			gittest.Git(t, sub, "-c", "user.name=a", "-c", "user.email=a@b", "add", "-A")
			gittest.Git(t, sub, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "-m", "sub")
			gittest.Git(t, sub, "config", "core.fsmonitor", script)
			gittest.Git(t, sub, "config", "filter.evil.clean", script)
			gittest.Write(t, sub, "f.txt", "two\n")
			gittest.Git(t, wt.Path, "add", "sub") // a gitlink, in the agent's own index
		}, []string{"status"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := wtTaskRepo(t)
			if tt.setup != nil {
				tt.setup(t, r)
			}
			var reports []*Tampered
			r.Hooks.Tampered = func(tp *Tampered) { reports = append(reports, tp) }
			wt, base := wtEnsure(t, r, "tm-1")
			mainTip, mainIndex := gittest.Rev(t, r.Root, "main"), gittest.FileHash(t, filepath.Join(r.Root, ".git", "index"))
			gittest.Write(t, wt.Path, "work.txt", "the agent's work\n")
			script, marker := evilScript(t)
			tt.plant(t, r, wt, script)
			if tt.proof != nil {
				_ = plainGit(wt.Path, tt.proof...)
				if _, err := os.Stat(marker); err != nil {
					t.Fatalf("the plant does not work: plain git %s did not run the script", strings.Join(tt.proof, " "))
				}
				os.Remove(marker)
			}
			userHook := filepath.Join(r.Root, "..", "user-hook-ran")
			os.Remove(userHook)

			wt, err := r.OpenWorktree(wt.Path, wt.Branch)
			if err != nil || wt == nil {
				t.Fatalf("open: %v", err)
			}
			if _, _, err := wt.Snapshot(base, "bh: park\n"); err != nil {
				t.Fatalf("snapshot: %v", err)
			}
			commit, err := wt.commit(base, "tm-1: the work\n", nil)
			if err != nil {
				t.Fatalf("commit: %v", err)
			}
			if data, err := os.ReadFile(marker); err == nil {
				t.Fatalf("bh's git ran the agent's program: %s", data)
			}
			if got := gittest.Rev(t, r.Root, "bh/tm-1"); got != commit {
				t.Errorf("the work is not on the task's branch (%s, committed %s)", got, commit)
			}
			if gittest.Git(t, r.Root, "show", commit+":work.txt") != "the agent's work\n" {
				t.Errorf("the commit lacks the work")
			}
			if gittest.Rev(t, r.Root, "main") != mainTip || gittest.FileHash(t, filepath.Join(r.Root, ".git", "index")) != mainIndex {
				t.Errorf("the user's branch or index moved")
			}
			if tt.name == "the user's relative core.hooksPath, rewritten in the worktree" {
				if _, err := os.Stat(userHook); err == nil {
					t.Errorf("bh's git ran the user's pre-commit hook, outside any sandbox")
				}
				if hs := wt.CommitHooks(); len(hs) != 1 || hs[0].Path != filepath.Join(r.Root, ".githooks", "pre-commit") ||
					hs[0].Bind != filepath.Join(r.Root, ".githooks") {
					t.Errorf("the user's commit hooks: %+v", hs)
				}
			}
			if (len(reports) > 0) != tt.tampered {
				t.Errorf("reported as tampered: %v, want %v (%v)", len(reports) > 0, tt.tampered, reports)
			}
			list, err := r.LinkedWorktrees()
			i := slices.IndexFunc(list, func(l Linked) bool { return l.Path == wt.Path })
			if err != nil || i < 0 || len(list[i].Tampered) > 0 {
				t.Errorf("after bh's git, the worktree's files are still not bh's: %+v, %v", list, err)
			}
		})
	}
}

// A .git made a link to the main repository's git dir, or a HEAD moved to
// the user's branch: bh's commit still goes onto the task's branch, and
// the user's branch and index stay as they were.
func TestGuardedGitStaysOnTheTasksBranch(t *testing.T) {
	for _, name := range []string{"link", "HEAD"} {
		t.Run(name, func(t *testing.T) {
			r := wtTaskRepo(t)
			var reports []*Tampered
			r.Hooks.Tampered = func(tp *Tampered) { reports = append(reports, tp) }
			wt, base := wtEnsure(t, r, "tm-1")
			mainTip, mainIndex := gittest.Rev(t, r.Root, "main"), gittest.FileHash(t, filepath.Join(r.Root, ".git", "index"))
			gittest.Write(t, wt.Path, "work.txt", "the agent's work\n")
			if name == "link" {
				os.Remove(filepath.Join(wt.Path, ".git"))
				if err := os.Symlink(filepath.Join(r.Root, ".git"), filepath.Join(wt.Path, ".git")); err != nil {
					t.Fatal(err)
				}
			} else {
				gittest.Write(t, wt.GitDir(), "HEAD", "ref: refs/heads/main\n")
			}
			commit, err := wt.commit(base, "tm-1: the work\n", nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := gittest.Rev(t, r.Root, "bh/tm-1"); got != commit {
				t.Errorf("the work is not on the task's branch")
			}
			if gittest.Rev(t, r.Root, "main") != mainTip || gittest.FileHash(t, filepath.Join(r.Root, ".git", "index")) != mainIndex {
				t.Errorf("the user's branch or index moved")
			}
			if len(reports) == 0 {
				t.Errorf("not reported")
			}
		})
	}
}

// A pool slot an agent poisoned is made bh's again when it is reset for
// the next task, which then runs clean; released, it keeps nothing of
// the task's but what a fresh slot has.
func TestSlotResetToAFreshSlot(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n"})
	base := gittest.Rev(t, r.Root, "HEAD")
	path := filepath.Join(filepath.Dir(r.Root), "pool", "1")
	wt, err := r.ResetSlot(path, "tm-1", "bh/tm-1", base, r.Root, nil)
	if err != nil {
		t.Fatal(err)
	}
	fresh := adminNames(t, wt.GitDir())
	script, marker := evilScript(t)
	admin := wt.GitDir()
	gittest.Git(t, wt.Path, "update-ref", "refs/worktree/left", base)
	for f, content := range map[string]string{"config.worktree": "[core]\n\tfsmonitor = " + script + "\n",
		"index.lock.stale": "", "HEAD.lock": "", "ORIG_HEAD": base + "\n", "hooks/post-checkout": "#!/bin/sh\n",
		"info/sparse-checkout": "/x\n", "bh-index-123": "", "bh-base": base + "\n"} {
		gittest.Write(t, admin, f, content)
	}
	evil := filepath.Join(wt.Path, ".evil")
	gittest.Git(t, r.Root, "clone", "-q", "--bare", r.Root, evil)
	gittest.Git(t, evil, "config", "core.fsmonitor", script)
	gittest.Write(t, wt.Path, ".git", "gitdir: "+evil+"\n")
	var reports []*Tampered
	r.Hooks.Tampered = func(tp *Tampered) { reports = append(reports, tp) }
	if list, err := r.LinkedWorktrees(); err != nil || len(list) != 1 || len(list[0].Tampered) == 0 {
		t.Errorf("the listing does not tell the slot tampered with: %+v, %v", list, err)
	}

	if err := r.ReleaseSlot(path, "tm-1", "bh/tm-1", true); err != nil {
		t.Fatal(err)
	}
	if got := adminNames(t, admin); got != fresh {
		t.Errorf("a released slot's admin dir holds %s, want %s", got, fresh)
	}
	if _, err := r.ResetSlot(path, "tm-2", "bh/tm-2", base, r.Root, nil); err != nil {
		t.Fatal(err)
	}
	if got := adminNames(t, admin); got != fresh {
		t.Errorf("a reset slot's admin dir holds %s, a fresh one %s", got, fresh)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("bh's git ran the agent's program")
	}
	if len(reports) == 0 {
		t.Errorf("the poisoned slot was not reported")
	}
	if refs := gittest.Git(t, path, "for-each-ref", "refs/worktree/"); refs != "" {
		t.Errorf("the next task sees the last one's refs: %s", refs)
	}
}

// adminNames lists an admin dir's files, logs' too.
func adminNames(t *testing.T, admin string) string {
	var names []string
	err := filepath.WalkDir(admin, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(admin, p)
			names = append(names, rel)
		}
		return err
	})
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return strings.Join(names, " ")
}

// withWorktreeConfig is a user whose repository reads config.worktree
// (sparse checkout and worktree tooling set it).
func withWorktreeConfig(t *testing.T, r *Repo) {
	gittest.Git(t, r.Root, "config", "extensions.worktreeConfig", "true")
}

func plantFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(to)
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o755); err != nil {
		t.Fatal(err)
	}
}

// A rebase stopped on a conflict, whose todo list the agent (its admin
// dir is writable in its sandbox) gave an exec line and an update-ref of
// the user's branch: bh refuses to continue it, and nothing ran.
func TestContinueRebaseRefusesAnAgentsTodo(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	wt, _ := wtCommitted(t, r, "a.txt", "agent\n")
	gittest.Write(t, wt.Path, "b.txt", "agent\n")
	if _, err := wt.commit(gittest.Rev(t, wt.Path, "HEAD^"), "tm-1: more\n", nil); err != nil {
		t.Fatal(err)
	}
	gittest.Write(t, r.Root, "a.txt", "user\n")
	tip := gittest.CommitAll(t, r.Root, "the user changes the same line")
	var rc *RebaseConflict
	if err := wt.Rebase(tip); !errors.As(err, &rc) {
		t.Fatalf("Rebase: %v", err)
	}
	script, marker := evilScript(t)
	todo := filepath.Join(wt.GitDir(), "rebase-merge", "git-rebase-todo")
	gittest.Write(t, filepath.Dir(todo), "git-rebase-todo", "exec "+script+"\nupdate-ref refs/heads/main\n")
	gittest.Write(t, wt.Path, "a.txt", "user and agent\n")
	err := wt.ContinueRebase()
	if err == nil || !strings.Contains(err.Error(), "not bh's") {
		t.Fatalf("ContinueRebase: %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the agent's exec line ran")
	}
	if gittest.Rev(t, r.Root, "main") != tip {
		t.Errorf("the user's branch moved")
	}
}

// A task's branch, checked out again in a new worktree, whose relative
// hooks folder (the user's core.hooksPath) the agent committed its
// program into: git worktree add runs no post-checkout hook, neither the
// branch's nor the user's (which would run over the agent's files).
func TestWorktreeAddRunsNoHook(t *testing.T) {
	r := wtTaskRepo(t)
	userRan := filepath.Join(t.TempDir(), "user-ran")
	gittest.Write(t, r.Root, ".githooks/post-checkout", "#!/bin/sh\ntouch "+userRan+"\n")
	os.Chmod(filepath.Join(r.Root, ".githooks/post-checkout"), 0o755)
	gittest.Git(t, r.Root, "add", ".githooks")
	gittest.Git(t, r.Root, "commit", "-q", "-m", "hooks")
	gittest.Git(t, r.Root, "config", "core.hooksPath", ".githooks")
	wt, _ := wtEnsure(t, r, "tm-1")
	script, marker := evilScript(t)
	plantFile(t, script, filepath.Join(wt.Path, ".githooks/post-checkout"))
	gittest.Git(t, wt.Path, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-am", "the agent's hook")
	os.Remove(marker)
	if err := r.RemoveWorktree(wt.Path, ""); err != nil {
		t.Fatal(err)
	}
	os.Remove(userRan)
	if _, _, err := r.EnsureWorktree(wt.Path, "bh/tm-1", "", r.Root); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("git worktree add ran the branch's hook")
	}
	if _, err := os.Stat(userRan); err == nil {
		t.Errorf("git worktree add ran the user's post-checkout hook")
	}
}
