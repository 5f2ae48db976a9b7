package git

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// TestRegisterMergeDriver sets the driver once, mends a value the user
// changed, and leaves a config that already holds it unwritten.
func TestRegisterMergeDriver(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	if err := r.RegisterMergeDriver("bh-task"); err != nil {
		t.Fatal(err)
	}
	equalT(t, "driver", r.ConfigValue("merge.bh-task.driver"), "bh merge-file %O %A %B %P")
	equalT(t, "name", r.ConfigValue("merge.bh-task.name"), "bh task files, field by field")

	gittest.Git(t, r.Root, "config", "merge.bh-task.driver", "cat")
	if err := r.RegisterMergeDriver("bh-task"); err != nil {
		t.Fatal(err)
	}
	equalT(t, "driver mended", r.ConfigValue("merge.bh-task.driver"), "bh merge-file %O %A %B %P")

	// Held as it is: not written again (the file is not replaced).
	cfg := filepath.Join(r.Root, ".git", "config")
	before, err := os.Stat(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.RegisterMergeDriver("bh-task"); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Error("a config that held the driver was written again")
	}
}
