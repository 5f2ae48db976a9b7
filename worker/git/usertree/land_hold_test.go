package usertree

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// From before the landing moves the user's files until after it moved
// their branch, the index is locked: a git command of theirs in that
// instant (git add, git commit) waits or fails as for any other git, and
// never sees the landed files staged on the old commit, to sweep them
// into a commit of its own.
func TestWtLandHoldsTheIndexUntilTheBranchMoved(t *testing.T) {
	r, final, _, _ := wtLandScene(t, true)
	wtUserWork(t, r)
	var out []byte
	r.Hooks.Before = func(dir string, args []string) {
		if slices.Contains(args, "update-ref") && slices.Contains(args, "bh: land") && out == nil {
			c := exec.Command("git", "add", "other.txt")
			c.Dir = r.Root
			out, _ = c.CombinedOutput()
		}
	}
	if err := Of(r).Land("main", final, wtTaskPath); err != nil {
		t.Fatalf("Land: %v", err)
	}
	if !strings.Contains(string(out), "index.lock") {
		t.Errorf("the user's git add in the middle of the landing: %q, want it kept out by index.lock", out)
	}
	if got := gittest.Rev(t, r.Root, "HEAD"); got != final {
		t.Errorf("HEAD %s, want the landed %s", got, final)
	}
	if st := gittest.Status(t, r.Root); !slices.Contains(st, " M other.txt") || !slices.Contains(st, "M  staged.txt") {
		t.Errorf("the user's work after the landing: %q", st)
	}
	if _, err := os.Stat(filepath.Join(r.Root, ".git", "index.lock")); err == nil {
		t.Error("index.lock left behind")
	}
}

// A bh killed while it held the index (before the files moved, or after
// and before the branch did), its git killed too (the lock on bh's index
// copy left behind): the next landing undoes it first, the locks gone,
// the user's tree as it was, and then lands.
func TestWtLandKilledWhileHoldingTheIndex(t *testing.T) {
	for _, at := range []string{"read-tree", "update-ref"} {
		r, final, base, _ := wtLandScene(t, true)
		wtUserWork(t, r)
		status, files := gittest.Status(t, r.Root), gittest.Hashes(t, r.Root)
		r.Hooks.Before = func(dir string, args []string) {
			if slices.Contains(args, at) && !slices.Contains(args, "--absolute-git-dir") {
				os.WriteFile(filepath.Join(r.Root, ".git", "bh-land-index.lock"), nil, 0o644)
				runtime.Goexit()
			}
		}
		done := make(chan struct{})
		go func() { defer close(done); Of(r).Land("main", final, wtTaskPath) }()
		<-done
		r.Hooks.Before = nil
		if _, err := os.Stat(filepath.Join(r.Root, ".git", "index.lock")); err != nil {
			t.Fatalf("killed at %s: no index.lock held: %v", at, err)
		}
		if err := Of(r).finishLanding(); err != nil {
			t.Fatalf("killed at %s: finishLanding: %v", at, err)
		}
		if got := gittest.Status(t, r.Root); !reflect.DeepEqual(got, status) || !reflect.DeepEqual(gittest.Hashes(t, r.Root), files) ||
			gittest.Rev(t, r.Root, "HEAD") != base {
			t.Fatalf("killed at %s, undone: the tree is\n%q\nwant\n%q", at, got, status)
		}
		if err := Of(r).Land("main", final, wtTaskPath); err != nil {
			t.Fatalf("killed at %s: Land again: %v", at, err)
		}
		if gittest.Read(t, r.Root, "feature/new.txt") != "feature\n" {
			t.Errorf("killed at %s: the landing again did not bring the task's files", at)
		}
	}
}

// A file of the landing's only touched in the user's tree (its bytes as
// committed, its stat data not what the index says) is not a change in
// the way: refused over, the landing refreshes the index, as git merge
// does, and tries again; nothing had moved before. A landing that meets
// no such file refreshes nothing (a scan of the whole tree).
func TestWtLandOverATouchedFile(t *testing.T) {
	for _, touched := range []bool{true, false} {
		r, final, _, _ := wtLandScene(t, true)
		if touched {
			later := time.Now().Add(time.Hour)
			if err := os.Chtimes(filepath.Join(r.Root, "landed.txt"), later, later); err != nil {
				t.Fatal(err)
			}
		}
		refreshes, before := 0, ""
		r.Hooks.Before = func(dir string, args []string) {
			if slices.Contains(args, "--refresh") {
				refreshes++
				before = gittest.Read(t, r.Root, "landed.txt")
			}
		}
		if err := Of(r).Land("main", final, wtTaskPath); err != nil {
			t.Fatalf("Land (touched: %v): %v", touched, err)
		}
		if got := gittest.Read(t, r.Root, "landed.txt"); got != "new\n" {
			t.Errorf("touched: %v: landed.txt = %q", touched, got)
		}
		if want := map[bool]int{true: 1, false: 0}[touched]; refreshes != want {
			t.Errorf("touched: %v: %d refreshes of the index, want %d", touched, refreshes, want)
		}
		if touched && before == "new\n" {
			t.Error("the refused landing had moved landed.txt before the refresh")
		}
	}
}
