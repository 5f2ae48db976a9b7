package usertree

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// A fast-forward whose ref update fails (here a hook refuses it; in the
// torture run the user's git held the ref) has already checked the task's
// files out and staged them in the user's tree. Land puts them back, so
// that the user's next commit does not sweep them in and the next landing
// finds nothing in its way; the user's own changes stay.
func TestWtLandFailedMergeLeavesNothingBehind(t *testing.T) {
	r, final, base, _ := wtLandScene(t, true)
	wtUserWork(t, r)
	status, files := gittest.Status(t, r.Root), gittest.Hashes(t, r.Root)
	hook := filepath.Join(r.Root, ".git", "hooks", "reference-transaction")
	gittest.Write(t, r.Root, ".git/hooks/reference-transaction",
		"#!/bin/sh\n[ \"$1\" = prepared ] && grep -q ' refs/heads/main$' && exit 1\nexit 0\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Of(r).Land("main", final, wtTaskPath); err == nil {
		t.Fatal("Land succeeded with the ref update refused")
	}
	if got := gittest.Status(t, r.Root); !reflect.DeepEqual(got, status) {
		t.Fatalf("the failed landing left the user's tree as\n%q\nwant\n%q", got, status)
	}
	if got := gittest.Hashes(t, r.Root); !reflect.DeepEqual(got, files) || gittest.Rev(t, r.Root, "HEAD") != base {
		t.Fatal("the failed landing changed the user's files or HEAD")
	}
	os.Remove(hook)
	if err := Of(r).Land("main", final, wtTaskPath); err != nil {
		t.Fatalf("Land once the ref is free: %v", err)
	}
	if gittest.Read(t, r.Root, "feature/new.txt") != "feature\n" || gittest.Read(t, r.Root, "other.txt") != "the user's unstaged edit\n" {
		t.Fatal("the landing did not bring the task's files, or lost the user's edit")
	}
}
