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

// bh's git commit runs no hook, not even the user's (every one that
// could: pre-commit, prepare-commit-msg, commit-msg, post-commit,
// reference-transaction): the work's Verify has the staged work decided
// on, with the message in a file, the message it gives is committed, and an error from it
// commits nothing.
func TestWtCommitRunsNoHookButVerify(t *testing.T) {
	r := wtTaskRepo(t)
	wt, base := wtEnsure(t, r, "tm-1")
	marker := filepath.Join(t.TempDir(), "hook-ran")
	for _, h := range []string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "reference-transaction"} {
		gittest.Write(t, filepath.Join(r.commonDir, "hooks"), h, "#!/bin/sh\necho "+h+" >> '"+marker+"'\n")
		if err := os.Chmod(filepath.Join(r.commonDir, "hooks", h), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got := r.CommitHooks(); len(got) != 3 || got[0].Name != "pre-commit" || got[2].Name != "commit-msg" {
		t.Fatalf("CommitHooks: %+v", got)
	}
	gittest.Write(t, wt.Path, "a.txt", "changed\n")
	refused := errors.New("refused")
	k := &Work{base: base, Verify: func(string) (string, error) { return "", refused }}
	if _, err := wt.commit(base, "tm-1: hooked\n", k); !errors.Is(err, refused) {
		t.Fatalf("a refusal did not stop the commit: %v", err)
	}
	if gittest.Rev(t, r.Root, "refs/heads/bh/tm-1") != base {
		t.Fatal("refused work was committed")
	}
	var staged string
	k.Verify = func(msgFile string) (string, error) {
		staged = gittest.Git(t, wt.Path, "diff", "--cached", "--name-only", base)
		data, err := os.ReadFile(msgFile)
		return string(data) + "\nChange-Id: I1\n", err
	}
	commit, err := wt.commit(base, "tm-1: hooked\n", k)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(staged) != "a.txt" {
		t.Errorf("Verify saw %q staged, want the work", staged)
	}
	if msg := gittest.Git(t, r.Root, "log", "-1", "--format=%B", commit); !strings.Contains(msg, "Change-Id: I1") {
		t.Errorf("the message as the hooks left it is not committed: %q", msg)
	}
	if data, err := os.ReadFile(marker); err == nil {
		t.Fatalf("bh's git ran hooks: %s", data)
	}
	if gittest.Git(t, r.Root, "show", commit+":a.txt") != "changed\n" {
		t.Fatal("the commit misses the work")
	}
}
