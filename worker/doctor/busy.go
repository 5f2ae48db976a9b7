package doctor

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/bh-tracker/bh/worker/claims"
)

// busyWorker is the worker holding the worker lock, nil when none does;
// with take, the lock is taken when free (unlock gives it back).
func busyWorker(dir string, take bool, now time.Time) (*claims.Holder, func(), error) {
	path := filepath.Join(dir, "worker.lock")
	if take {
		unlock, err := claims.LockWorker(dir, now)
		var be *claims.BusyError
		if errors.As(err, &be) {
			return &be.Holder, nil, nil
		}
		return nil, unlock, err
	}
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, nil, nil // no lock file: checkNotLocks says so
	}
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil // no worker ever ran here
	}
	l := claims.WorkerFlock(dir)
	ok, err := l.TryLock()
	if err != nil {
		return nil, nil, fmt.Errorf("worker lock: %w", err)
	}
	if ok {
		l.Unlock()
		return nil, nil, nil
	}
	h := claims.ReadHolder(path)
	return &h, nil, nil
}
