package git

import (
	"errors"
	"reflect"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// wtCommitted makes task tm-1's commit changing file to content.
func wtCommitted(t *testing.T, r *Repo, file, content string) (*Worktree, string) {
	t.Helper()
	wt, base := wtEnsure(t, r, "tm-1")
	gittest.Write(t, wt.Path, file, content)
	if _, err := wt.commit(base, "tm-1: work\n", nil); err != nil {
		t.Fatal(err)
	}
	return wt, base
}

func TestWtRebaseClean(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	wt, _ := wtCommitted(t, r, "a.txt", "agent\n")
	gittest.Write(t, r.Root, "b.txt", "user\n")
	tip := gittest.CommitAll(t, r.Root, "the user moves on")
	if err := wt.Rebase(tip); err != nil {
		t.Fatal(err)
	}
	if got := gittest.Rev(t, wt.Path, "HEAD^@"); got != tip {
		t.Fatalf("rebased onto %s, want %s", got, tip)
	}
	if base, err := wt.Base("main"); err != nil || base != tip {
		t.Fatalf("Base after rebase: %s, %v", base, err)
	}
	if gittest.Read(t, wt.Path, "a.txt") != "agent\n" || gittest.Read(t, wt.Path, "b.txt") != "user\n" {
		t.Fatal("the rebased worktree lacks a side's change")
	}
	if err := wt.Rebase(tip); err != nil {
		t.Fatalf("rebase again: %v", err)
	}
}

func TestWtRebaseConflict(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	wt, _ := wtCommitted(t, r, "a.txt", "agent\n")
	gittest.Write(t, r.Root, "a.txt", "user\n")
	tip := gittest.CommitAll(t, r.Root, "the user changes the same line")

	err := wt.Rebase(tip)
	var rc *RebaseConflict
	if !errors.As(err, &rc) || rc.Onto != tip || !reflect.DeepEqual(rc.Paths, []string{"a.txt"}) {
		t.Fatalf("Rebase: %v (%+v)", err, rc)
	}
	if rebasing, err := wt.Rebasing(); err != nil || !rebasing {
		t.Fatalf("Rebasing: %v, %v", rebasing, err)
	}
	if err := wt.Rebase(tip); !errors.As(err, &rc) {
		t.Fatalf("Rebase during a rebase: %v", err)
	}
	if err := wt.ContinueRebase(); !errors.As(err, &rc) || !reflect.DeepEqual(rc.Paths, []string{"a.txt"}) {
		t.Fatalf("ContinueRebase with markers left: %v", err)
	}
	gittest.Write(t, wt.Path, "a.txt", "user and agent\n")
	if err := wt.ContinueRebase(); err != nil {
		t.Fatal(err)
	}
	if rebasing, _ := wt.Rebasing(); rebasing {
		t.Fatal("still rebasing")
	}
	if got := gittest.Rev(t, wt.Path, "HEAD^@"); got != tip {
		t.Fatalf("rebased onto %s, want %s", got, tip)
	}
	if gittest.Git(t, r.Root, "show", "refs/heads/bh/tm-1:a.txt") != "user and agent\n" {
		t.Fatal("the resolution is not committed")
	}
	if err := wt.ContinueRebase(); err != nil {
		t.Fatalf("ContinueRebase with nothing in progress: %v", err)
	}
}

// Resolving to the target's own version leaves the commit empty.
func TestWtRebaseResolvedToNothing(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n"})
	wt, _ := wtCommitted(t, r, "a.txt", "agent\n")
	gittest.Write(t, r.Root, "a.txt", "user\n")
	tip := gittest.CommitAll(t, r.Root, "the user changes the same line")
	var rc *RebaseConflict
	if err := wt.Rebase(tip); !errors.As(err, &rc) {
		t.Fatalf("Rebase: %v", err)
	}
	gittest.Write(t, wt.Path, "a.txt", "user\n")
	if err := wt.ContinueRebase(); err != nil {
		t.Fatal(err)
	}
	if rebasing, _ := wt.Rebasing(); rebasing {
		t.Fatal("still rebasing")
	}
	t.Logf("branch after an empty resolution: %s (tip %s)", gittest.Rev(t, wt.Path, "HEAD"), tip)
}
