package git

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// CommitWork commits the work Work staged without staging the tree again,
// exactly as Commit would have; an index staged to in between (the late
// file) is staged afresh, and the commit has that too. No copy is left.
func TestWtCommitWork(t *testing.T) {
	for _, between := range []bool{false, true} {
		r := wtTaskRepo(t)
		wt, base := wtEnsure(t, r, "tm-1")
		wtAgentWork(t, wt)
		snap, _, err := wt.Snapshot(base, "state\n")
		if err != nil {
			t.Fatal(err)
		}
		k, err := wt.Work(base)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"a.txt", "b.txt", "c.txt", "new/file.txt"}; !slices.Equal(k.Paths, want) {
			t.Errorf("Work's paths %q, want %q", k.Paths, want)
		}
		if between {
			gittest.Write(t, wt.Path, "late.txt", "late\n")
			gittest.Git(t, wt.Path, "add", "late.txt")
		}
		adds := 0
		r.Hooks.Before = func(dir string, args []string) {
			if slices.Contains(args, "add") {
				adds++
			}
		}
		commit, err := wt.CommitWork(k, "tm-1: the work\n")
		k.Close()
		r.Hooks.Before = nil
		if err != nil {
			t.Fatalf("between: %v: CommitWork: %v", between, err)
		}
		if want := map[bool]int{false: 0, true: 1}[between]; adds != want {
			t.Errorf("between: %v: %d git add, want %d", between, adds, want)
		}
		tree, state := gittest.Rev(t, r.Root, commit+"^{tree}"), gittest.Rev(t, r.Root, snap+"^{tree}")
		if !between && tree != state {
			t.Errorf("the commit's tree is not the worktree's state")
		}
		if between && gittest.Git(t, r.Root, "show", commit+":late.txt") != "late\n" {
			t.Errorf("the commit misses the file staged in between")
		}
		want := []string{"a.txt", "b.txt", "c.txt", "new/file.txt"}
		if between {
			want = []string{"a.txt", "b.txt", "c.txt", "late.txt", "new/file.txt"}
		}
		if got, err := wt.CommittedPaths(k, commit); err != nil || !slices.Equal(got, want) {
			t.Errorf("between: %v: CommittedPaths %q, %v; want %q", between, got, err, want)
		}
		if st := gittest.Status(t, wt.Path); !slices.Equal(st, []string{"!! debug.log"}) {
			t.Errorf("between: %v: worktree not clean after CommitWork: %q", between, st)
		}
		if left, _ := filepath.Glob(filepath.Join(wt.GitDir(), "bh-index-*")); len(left) > 0 {
			t.Errorf("index copies left: %q", left)
		}
	}
}

// Work that nets to nothing is nothing to commit, adopted or not.
func TestWtCommitWorkOfNothing(t *testing.T) {
	r := wtTaskRepo(t)
	wt, base := wtEnsure(t, r, "tm-1")
	gittest.Write(t, wt.Path, "a.txt", "a\n") // touched, its bytes as they were
	gittest.Write(t, wt.Path, ".bh/tasks/tm-1.yaml", "bh's own\n")
	k, err := wt.Work(base)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if _, err := wt.CommitWork(k, "nothing\n"); !errors.Is(err, ErrNothingToCommit) {
		t.Fatalf("CommitWork of nothing: %v", err)
	}
}

// An edit made in the clock tick the index was written in (same size,
// inode and mtime as its entry; ctime not trusted here) is work all the
// same: git's racy-clean check finds it in the index copy Work stages, as
// it does in the index itself, only when the copy keeps the index's mtime.
func TestWtWorkSeesEditInIndexTick(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "old\n"})
	wt, base := wtEnsure(t, r, "tm-1")
	gittest.Git(t, wt.Path, "config", "core.trustctime", "false")
	file, index := filepath.Join(wt.Path, "a.txt"), filepath.Join(wt.GitDir(), "index")
	tick := time.Now().Add(-time.Hour)
	if err := os.Chtimes(file, tick, tick); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, wt.Path, "update-index", "--refresh") // the entry takes tick
	gittest.Write(t, wt.Path, "a.txt", "new\n")
	for _, p := range []string{file, index} {
		if err := os.Chtimes(p, tick, tick); err != nil {
			t.Fatal(err)
		}
	}
	k, err := wt.Work(base)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if !slices.Equal(k.Paths, []string{"a.txt"}) {
		t.Fatalf("Work's paths %q, want [a.txt]", k.Paths)
	}
}
