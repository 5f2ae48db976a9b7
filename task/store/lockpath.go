package store

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/gofrs/flock"
)

// NotLockError is a folder with files in it where bh keeps a lock file
// (.git/bh/locks/<id>.lock, land.lock, .git/bh/worker.lock): bh does not remove
// what it did not make, and cannot lock there until it is gone.
type NotLockError struct{ Path string }

func (e *NotLockError) Error() string {
	return e.Path + " is a folder with files in it, not bh's lock file"
}

// Hint tells the user what to do.
func (e *NotLockError) Hint() string { return "remove it, or run bh doctor --fix" }

// ClearLockPath makes path fit for a lock file: anything there that is no
// regular file (an empty folder, a link, a FIFO, planted by an agent when
// it could still write .git/bh/locks) is removed, so that it cannot stop
// every later worker, bh update and bh sync; a folder with files in it
// is a NotLockError.
func ClearLockPath(path string) error {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode().IsRegular() {
		return nil // none yet (flock makes it), or a lock file
	}
	err = os.Remove(path)
	if errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, syscall.EEXIST) {
		return &NotLockError{Path: path}
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s is not a lock file: %w", path, err)
	}
	return nil
}

// LockFile takes the flock on path (a task's lock, the landing lock),
// cleared first (ClearLockPath).
func LockFile(path string) (*flock.Flock, error) {
	if err := ClearLockPath(path); err != nil {
		return nil, err
	}
	l := flock.New(path)
	if err := l.Lock(); err != nil {
		return nil, err
	}
	return l, nil
}
