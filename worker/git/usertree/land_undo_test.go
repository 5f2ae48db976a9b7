package usertree

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// A fast-forward whose ref update fails (the user's git holds the ref,
// as in the torture run) has already checked the task's files out and
// staged them in the user's tree. Land puts them back, so
// that the user's next commit does not sweep them in and the next landing
// finds nothing in its way; the user's own changes stay.
func TestWtLandFailedMergeLeavesNothingBehind(t *testing.T) {
	r, final, base, _ := wtLandScene(t, true)
	wtUserWork(t, r)
	status, files := gittest.Status(t, r.Root), gittest.Hashes(t, r.Root)
	lock := filepath.Join(r.Root, ".git", "refs", "heads", "main.lock")
	r.LockBound = time.Nanosecond
	r.Hooks.Before = func(_ string, args []string) { // the user's git takes the ref as bh updates it
		if slices.Contains(args, "update-ref") && slices.Contains(args, "refs/heads/main") {
			gittest.Write(t, filepath.Dir(lock), "main.lock", "")
		}
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
	r.Hooks.Before = nil
	os.Remove(lock)
	if err := Of(r).Land("main", final, wtTaskPath); err != nil {
		t.Fatalf("Land once the ref is free: %v", err)
	}
	if gittest.Read(t, r.Root, "feature/new.txt") != "feature\n" || gittest.Read(t, r.Root, "other.txt") != "the user's unstaged edit\n" {
		t.Fatal("the landing did not bring the task's files, or lost the user's edit")
	}
}
