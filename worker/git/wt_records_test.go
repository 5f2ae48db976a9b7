package git

import (
	"path/filepath"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// bh's records of a worktree are not in its admin dir (the sandbox's to
// write): what is written there changes nothing.
func TestWtRecordsOutOfTheAdminDir(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n"})
	base := gittest.Rev(t, r.Root, "HEAD")
	gittest.Write(t, r.Root, "b.txt", "b\n")
	other := gittest.CommitAll(t, r.Root, "another")
	path := filepath.Join(filepath.Dir(r.Root), "pool", "1")
	wt, err := r.ResetSlot(path, "tm-1", "bh/tm-1", base, r.Root, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.SetBase(base); err != nil {
		t.Fatal(err)
	}
	admin := wt.GitDir()
	for _, f := range []string{"bh-base", "bh-base-onto"} { // as an agent would
		gittest.Write(t, admin, f, other+"\n")
	}
	gittest.Write(t, admin, "bh-holder", "tm-evil\n")
	if got := wt.RecordedBase(); got != base {
		t.Fatalf("the base after the admin dir was written: %s, want %s", got, base)
	}
	if list, err := r.LinkedWorktrees(); err != nil || len(list) != 1 || list[0].Holder != "tm-1" {
		t.Fatalf("the holder after the admin dir was written: %+v, %v", list, err)
	}

}
