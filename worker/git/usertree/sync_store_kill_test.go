package usertree

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// A bh killed while its store commit held the index, with a git of its
// own killed mid-command too (its lock on bh's index copy left behind,
// as `bh sync` killed during `git write-tree` left it): finishLanding
// lets go of everything, nothing moved, and the next store commit goes
// through, leaving nothing behind.
func TestCommitStoreKilledLeavingItsGitsLocks(t *testing.T) {
	for _, at := range []string{"add", "read-tree", "write-tree", "commit-tree", "update-ref"} {
		r := wtRepo(t, map[string]string{".bh/tasks/tm-1.yaml": "title: one\n", "user.txt": "mine\n"})
		base := gittest.Rev(t, r.Root, "HEAD")
		gittest.Write(t, r.Root, ".bh/tasks/tm-1.yaml", "title: changed\n")
		gittest.Write(t, r.Root, "user.txt", "the user's edit\n")
		gitDir := filepath.Join(r.Root, ".git")
		left := []string{filepath.Join(gitDir, "bh-land-index.lock"), filepath.Join(gitDir, "bh-land-index-tree.lock")}
		r.Hooks.Before = func(dir string, args []string) {
			if slices.Contains(args, at) {
				for _, p := range left {
					os.WriteFile(p, nil, 0o644)
				}
				runtime.Goexit()
			}
		}
		done := make(chan struct{})
		go func() { defer close(done); Of(r).CommitStore(filepath.Join(r.Root, ".bh"), "bh: store") }()
		<-done
		r.Hooks.Before = nil
		if err := Of(r).finishLanding(); err != nil {
			t.Fatalf("killed at %s: finishLanding: %v", at, err)
		}
		if got := gittest.Rev(t, r.Root, "HEAD"); got != base {
			t.Fatalf("killed at %s: HEAD moved to %s", at, got)
		}
		committed, err := Of(r).CommitStore(filepath.Join(r.Root, ".bh"), "bh: store")
		if err != nil || !committed {
			t.Fatalf("killed at %s: the next store commit: %v, %v", at, committed, err)
		}
		if got := gittest.Git(t, r.Root, "show", "HEAD:.bh/tasks/tm-1.yaml"); got != "title: changed\n" {
			t.Errorf("killed at %s: committed %q", at, got)
		}
		if st := gittest.Status(t, r.Root); !slices.Equal(st, []string{" M user.txt"}) {
			t.Errorf("killed at %s: status after %q, want the user's edit alone", at, st)
		}
		for _, name := range []string{"index.lock", "bh-land-held", "bh-land-index", "bh-land-index.lock", "bh-land-index-tree", "bh-land-index-tree.lock"} {
			if _, err := os.Stat(filepath.Join(gitDir, name)); err == nil {
				t.Errorf("killed at %s: .git/%s left behind", at, name)
			}
		}
	}
}
