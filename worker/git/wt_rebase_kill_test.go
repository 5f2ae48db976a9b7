package git

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// A kill after git's rebase finished but before bh recorded the new base
// (simulated: the record made unwritable as the rebase starts, as a kill
// at that instant leaves it, the old base in place) must not leave the
// old base standing: measured from it, every commit of the target since
// became the task's work, and its commit carried them all (the torture
// run's branch of 73 files, seed 12).
func TestWtRebaseKilledBeforeTheBaseIsRecorded(t *testing.T) {
	r := wtRepo(t, map[string]string{"a.txt": "a\n", "u.txt": "u\n"})
	wt, base := wtCommitted(t, r, "a.txt", "agent\n")
	if err := wt.SetBase(base); err != nil { // as prepare records it
		t.Fatal(err)
	}
	gittest.Write(t, r.Root, "u.txt", "user\n")
	gittest.Write(t, r.Root, "other.txt", "another task's\n")
	tip := gittest.CommitAll(t, r.Root, "the user and another task move on")

	rec := r.RecordsDir(wt.Path)
	r.Hooks.Before = func(_ string, args []string) {
		if slices.Contains(args, "rebase") { // bh's git runs no hook: the record goes as git starts
			_ = os.Rename(filepath.Join(rec, "base"), filepath.Join(rec, "base.keep"))
			_ = os.Mkdir(filepath.Join(rec, "base"), 0o755)
		}
	}
	if err := wt.Rebase(tip); err == nil {
		t.Fatal("the base was recorded although its record could not be written")
	}
	// The restart: the record is as the kill left it, the old base.
	if err := os.Remove(filepath.Join(rec, "base")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(rec, "base.keep"), filepath.Join(rec, "base")); err != nil {
		t.Fatal(err)
	}
	r.Hooks.Before = nil
	if got := gittest.Read(t, rec, "base"); got != base+"\n" {
		t.Fatalf("the record holds %q, want the old base", got)
	}

	again, err := r.OpenWorktree(wt.Path, "bh/tm-1")
	if err != nil || again == nil {
		t.Fatalf("OpenWorktree: %v", err)
	}
	if b, err := again.Base("main"); err != nil || b != tip {
		t.Fatalf("Base after the kill: %s, %v; want the rebase's %s", b, err, tip)
	}
	if paths, err := again.Changed(tip); err != nil || !reflect.DeepEqual(paths, []string{"a.txt"}) {
		t.Fatalf("the work after the kill: %v, %v; want a.txt only", paths, err)
	}
	c, err := again.commit(again.RecordedBase(), "tm-1: work\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, r.Root, "diff", "--name-only", c+"^", c); got != "a.txt\n" {
		t.Fatalf("the task's commit holds %q, want a.txt only", got)
	}
}
