package git

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// bh's records of a worktree are not in its admin dir (the sandbox's to
// write): what is written there changes nothing. A slot an older bh
// recorded there is adopted once, its holder and base as they were.
func TestWtRecordsOutOfTheAdminDirAndAdopted(t *testing.T) {
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

	// An older bh's slot: its records in the admin dir, none of this bh's.
	if err := os.RemoveAll(r.RecordsDir(path)); err != nil {
		t.Fatal(err)
	}
	gittest.Write(t, admin, "bh-base", base+"\n")
	gittest.Write(t, admin, "bh-holder", "tm-1\n")
	os.Remove(filepath.Join(admin, "bh-base-onto"))
	if list, err := r.LinkedWorktrees(); err != nil || len(list) != 1 || list[0].Holder != "tm-1" {
		t.Fatalf("an older bh's slot is not its task's: %+v, %v", list, err)
	}
	again, err := r.OpenWorktree(path, "bh/tm-1")
	if err != nil || again == nil {
		t.Fatalf("OpenWorktree: %v", err)
	}
	if got := again.RecordedBase(); got != base {
		t.Fatalf("an older bh's base: %q, want %s", got, base)
	}
	for _, f := range []string{"bh-base", "bh-holder"} {
		if gittest.Exists(admin, f) {
			t.Errorf("%s is still in the admin dir after its adoption", f)
		}
	}
}
