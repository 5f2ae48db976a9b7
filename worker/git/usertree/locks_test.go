package usertree

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/worker/git"
)

// An old lock that no git process holds is never waited for.
func TestStaleLockFailsAtOnceAndIsListed(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"a.txt": "a\n"})
	lock := filepath.Join(r.GitDir(), "index.lock")
	holdLock(t, lock, time.Hour)
	r.Hooks.Wait = func(git.LockWait) { t.Error("waited for a stale lock") }
	_, err := r.Write(nil, "add", "-A")
	var le *git.LockedError
	if !errors.As(err, &le) || !le.Stale || le.Age < time.Hour || !strings.Contains(err.Error(), "stale") {
		t.Fatalf("err = %v", err)
	}
	young := filepath.Join(r.CommonDir(), "packed-refs.lock")
	holdLock(t, young, 0)
	// `git commit -- <paths>` killed in its middle leaves this one too.
	next := filepath.Join(r.GitDir(), "next-index-4242.lock")
	holdLock(t, next, time.Hour)
	locks, err := Of(r).StaleLocks()
	if err != nil || len(locks) != 2 || locks[0].Path != lock || !locks[0].Stale || locks[1].Path != next {
		t.Fatalf("stale locks: %+v, %v", locks, err)
	}
	if err := Of(r).RemoveStaleLock(next); err != nil {
		t.Fatal(err)
	}
	if err := Of(r).RemoveStaleLock(young); err == nil {
		t.Fatal("removed a young lock")
	}
	if err := Of(r).RemoveStaleLock(lock); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Write(nil, "add", "-A"); err != nil {
		t.Fatal(err)
	}
}
