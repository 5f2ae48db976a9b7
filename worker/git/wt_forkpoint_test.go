package git

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// A slot's record of its fork point gone (a kill before it was written,
// a reset of the slot for a kept branch), the branch's fork point is the
// one git logged with it, even where the repository logs no ref updates,
// and after the target's commit it forked from was rewritten (a sync) and
// the branch rebased: never the older merge-base with the target.
func TestForkPointFromTheBranchLog(t *testing.T) {
	r := newRepo(t)
	gittest.Git(t, r.Root, "config", "core.logAllRefUpdates", "false")
	commitFiles(t, r, map[string]string{"u.txt": "v0\n"})
	start := strings.TrimSpace(gittest.Git(t, r.Root, "rev-parse", "HEAD"))
	commitFiles(t, r, map[string]string{"u.txt": "v1\n"})
	mine := strings.TrimSpace(gittest.Git(t, r.Root, "rev-parse", "HEAD"))
	path := filepath.Join(filepath.Dir(r.Root), "pool", "1")
	wt, err := r.ResetSlot(path, "tm-1", "bh/tm-1", mine, r.Root, nil)
	if err != nil {
		t.Fatal(err)
	}
	forget := func() {
		if err := os.Remove(filepath.Join(wt.records, recBase)); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	// The sync: the user's commit replayed onto the remote's.
	theirs := strings.TrimSpace(gittest.Git(t, r.Root, "commit-tree", start+"^{tree}", "-p", start, "-m", "theirs"))
	replayed := strings.TrimSpace(gittest.Git(t, r.Root, "commit-tree", mine+"^{tree}", "-p", theirs, "-m", "mine, replayed"))
	gittest.Git(t, r.Root, "update-ref", "refs/heads/main", replayed, mine)
	base, err := wt.Base("main")
	equalT(t, "base after the sync", base, mine)
	if err != nil {
		t.Fatal(err)
	}
	gittest.Write(t, wt.Path, "task.txt", "work\n")
	gittest.Git(t, wt.Path, "add", "task.txt")
	gittest.Git(t, wt.Path, "commit", "-q", "-m", "the task's")
	if err := wt.Rebase(replayed); err != nil {
		t.Fatal(err)
	}
	forget()
	base, err = wt.Base("main")
	equalT(t, "base after the rebase", base, replayed)
	if err != nil {
		t.Fatal(err)
	}
	equalT(t, "the branch's own commits", strings.TrimSpace(gittest.Git(t, r.Root, "log", "--format=%s", replayed+"..bh/tm-1")), "the task's")
}

// With its fork point recorded, a worktree's base is read without a git
// process: the branch's log is asked only without the record.
func TestForkPointRecordedCostsNoGit(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"u.txt": "v0\n"})
	start := strings.TrimSpace(gittest.Git(t, r.Root, "rev-parse", "HEAD"))
	wt, err := r.ResetSlot(filepath.Join(filepath.Dir(r.Root), "pool", "1"), "tm-1", "bh/tm-1", start, r.Root, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.SetBase(start); err != nil {
		t.Fatal(err)
	}
	ran := 0
	r.Hooks.Before = func(string, []string) { ran++ }
	base, err := wt.Base("main")
	if err != nil || base != start || ran != 0 {
		t.Errorf("Base: %s, %v after %d git processes; want %s after none", base, err, ran, start)
	}
}
