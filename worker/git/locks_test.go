package git

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// holdLock creates a git lock file, as another git process would.
func holdLock(t *testing.T, path string, age time.Duration) {
	t.Helper()
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if age > 0 {
		old := time.Now().Add(-age)
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
	}
}

// Each lock git takes for a write (index, a ref, packed-refs, config) is
// waited out: the step goes through once the holder lets go.
func TestGitStepWaitsForAYoungLock(t *testing.T) {
	cases := []struct {
		lock string
		args []string
	}{
		{"index.lock", []string{"add", "-A"}},
		{"refs/heads/main.lock", []string{"commit", "-q", "--allow-empty", "-m", "x"}},
		{"packed-refs.lock", []string{"pack-refs", "--all"}},
		{"config.lock", []string{"config", "bh.test", "1"}},
	}
	for _, c := range cases {
		t.Run(c.lock, func(t *testing.T) {
			r := newRepo(t)
			// git's own second of waiting for packed-refs.lock, before each
			// of bh's, is not what is tested here
			gittest.Git(t, r.Root, "config", "core.packedRefsTimeout", "0")
			commitFiles(t, r, map[string]string{"a.txt": "a\n"})
			writeT(t, r, "b.txt", "b\n")
			lock := filepath.Join(r.commonDir, filepath.FromSlash(c.lock))
			holdLock(t, lock, 0)
			waits := 0
			r.Hooks.Wait = func(w LockWait) {
				if w.Path != lock {
					t.Errorf("waits on %s, want %s", w.Path, lock)
				}
				if waits++; waits == 2 { // the holder lets go while bh waits
					os.Remove(lock)
				}
			}
			if _, err := r.Write(nil, c.args...); err != nil {
				t.Fatal(err)
			}
			if waits != 2 {
				t.Fatalf("waited %d times, want 2", waits)
			}
		})
	}
}

func TestGitStepGivesUpPastTheBound(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"a.txt": "a\n"})
	lock := filepath.Join(r.gitDir, "index.lock")
	holdLock(t, lock, 0)
	r.LockBound = 50 * time.Millisecond
	_, err := r.Write(nil, "add", "-A")
	var le *LockedError
	if !errors.As(err, &le) || le.Path != lock || le.Stale || le.Waited < r.LockBound {
		t.Fatalf("err = %#v", err)
	}
	if !strings.Contains(err.Error(), "index.lock") {
		t.Fatalf("error does not name the lock: %v", err)
	}
}

// A ref that moved refuses a compare-and-swap update: that is no lock.
func TestMovedRefIsNoContention(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"a.txt": "a\n"})
	r.Hooks.Wait = func(LockWait) { t.Error("took a moved ref for a lock") }
	_, err := r.Write(nil, "update-ref", "refs/heads/main", "HEAD", strings.Repeat("1", 40))
	var le *LockedError
	if err == nil || errors.As(err, &le) || !strings.Contains(err.Error(), "cannot lock ref") {
		t.Fatalf("err = %v", err)
	}
}
