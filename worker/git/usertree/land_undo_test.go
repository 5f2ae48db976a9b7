package usertree

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A fast-forward whose ref update fails (here a hook refuses it; in the
// torture run the user's git held the ref) has already checked the task's
// files out and staged them in the user's tree. Land puts them back, so
// that the user's next commit does not sweep them in and the next landing
// finds nothing in its way; the user's own changes stay.
func TestWtLandFailedMergeLeavesNothingBehind(t *testing.T) {
	r, final, base, _ := wtLandScene(t, true)
	wtUserWork(t, r)
	status, files := wtStatus(t, r.Root), wtHashes(t, r.Root)
	hook := filepath.Join(r.Root, ".git", "hooks", "reference-transaction")
	wtWrite(t, r.Root, ".git/hooks/reference-transaction",
		"#!/bin/sh\n[ \"$1\" = prepared ] && grep -q ' refs/heads/main$' && exit 1\nexit 0\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Of(r).Land("main", final, wtTaskPath); err == nil {
		t.Fatal("Land succeeded with the ref update refused")
	}
	if got := wtStatus(t, r.Root); !reflect.DeepEqual(got, status) {
		t.Fatalf("the failed landing left the user's tree as\n%q\nwant\n%q", got, status)
	}
	if got := wtHashes(t, r.Root); !reflect.DeepEqual(got, files) || wtRev(t, r.Root, "HEAD") != base {
		t.Fatal("the failed landing changed the user's files or HEAD")
	}
	os.Remove(hook)
	if err := Of(r).Land("main", final, wtTaskPath); err != nil {
		t.Fatalf("Land once the ref is free: %v", err)
	}
	if wtRead(t, r.Root, "feature/new.txt") != "feature\n" || wtRead(t, r.Root, "other.txt") != "the user's unstaged edit\n" {
		t.Fatal("the landing did not bring the task's files, or lost the user's edit")
	}
}
