package git

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

func TestWtCommitSquashes(t *testing.T) {
	r := wtTaskRepo(t)
	wt, base := wtEnsure(t, r, "tm-1")
	wtAgentWork(t, wt)
	snap, _, err := wt.Snapshot(base, "park\n")
	if err != nil {
		t.Fatal(err)
	}
	commit, err := wt.commit(base, "tm-1: do the thing\n\nbh-task: tm-1\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := gittest.Rev(t, r.Root, commit+"^@"); got != base {
		t.Fatalf("parents %q, want only base %s", got, base)
	}
	if gittest.Rev(t, r.Root, "refs/heads/bh/tm-1") != commit {
		t.Fatal("the branch is not at the commit")
	}
	if gittest.Rev(t, r.Root, commit+"^{tree}") != gittest.Rev(t, r.Root, snap+"^{tree}") {
		t.Fatal("the commit's tree is not the worktree's state")
	}
	if msg := gittest.Git(t, r.Root, "log", "-1", "--format=%B", commit); msg != "tm-1: do the thing\n\nbh-task: tm-1\n\n" {
		t.Fatalf("message %q", msg)
	}
	if st := gittest.Status(t, wt.Path); len(st) != 1 || st[0] != "!! debug.log" {
		t.Fatalf("worktree not clean after Commit: %q", st)
	}
	time.Sleep(1100 * time.Millisecond) // a new commit would get another date, and hash
	again, err := wt.commit(base, "tm-1: do the thing\n\nbh-task: tm-1\n", nil)
	if err != nil || again != commit {
		t.Fatalf("second Commit: %s, %v; want %s", again, err, commit)
	}
}

func TestWtCommitNothing(t *testing.T) {
	r := wtTaskRepo(t)
	wt, base := wtEnsure(t, r, "tm-1")
	gittest.Write(t, wt.Path, ".bh/tasks/tm-1.yaml", "bh's own\n")
	if _, err := wt.commit(base, "nothing\n", nil); !errors.Is(err, ErrNothingToCommit) {
		t.Fatalf("Commit of nothing: %v", err)
	}
	// An agent commit undone by the next one: the work nets to nothing.
	gittest.Write(t, wt.Path, "a.txt", "changed\n")
	gittest.CommitAll(t, wt.Path, "change")
	gittest.Write(t, wt.Path, "a.txt", "a\n")
	gittest.CommitAll(t, wt.Path, "change back")
	if _, err := wt.commit(base, "nothing\n", nil); !errors.Is(err, ErrNothingToCommit) {
		t.Fatalf("Commit of work undone: %v", err)
	}
	if gittest.Rev(t, r.Root, "refs/heads/bh/tm-1") != base {
		t.Fatal("the branch keeps commits that net to nothing")
	}
}

func TestWtCommitRunsHooks(t *testing.T) {
	r := wtTaskRepo(t)
	wt, base := wtEnsure(t, r, "tm-1")
	marker := filepath.Join(t.TempDir(), "pre-commit-ran")
	hook := filepath.Join(r.commonDir, "hooks", "pre-commit")
	gittest.Write(t, filepath.Dir(hook), "pre-commit", "#!/bin/sh\necho \"$PWD\" > '"+marker+"'\nexit ${FAIL:-0}\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	gittest.Write(t, wt.Path, "a.txt", "changed\n")

	t.Setenv("FAIL", "1")
	if _, err := wt.commit(base, "tm-1: hooked\n", nil); err == nil || errors.Is(err, ErrNothingToCommit) {
		t.Fatalf("a failing pre-commit hook did not stop Commit: %v", err)
	}
	t.Setenv("FAIL", "0")
	commit, err := wt.commit(base, "tm-1: hooked\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := gittest.Read(t, filepath.Dir(marker), filepath.Base(marker)); strings.TrimSpace(got) != wt.Path {
		t.Fatalf("pre-commit ran in %q, want the worktree", got)
	}
	if gittest.Git(t, r.Root, "show", commit+":a.txt") != "changed\n" {
		t.Fatal("the commit misses the work")
	}
}
