package claims

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/bh-tracker/bh/task/store"
	"github.com/gofrs/flock"
)

// Holder is who holds .bh/worker.lock.
type Holder struct {
	PID   int       `json:"pid"`
	Host  string    `json:"host"`
	Since time.Time `json:"since"`
}

// BusyError refuses a second worker in the same working tree.
type BusyError struct {
	Holder Holder // zero when the file could not be read
}

func (e *BusyError) Error() string {
	h := e.Holder
	if h.PID == 0 {
		return "another worker is already running in this working tree (it holds .bh/worker.lock)"
	}
	return fmt.Sprintf("another worker is already running in this working tree (pid %d on %s, since %s)",
		h.PID, h.Host, h.Since.Local().Format("2006-01-02 15:04:05"))
}

// LockWorker takes .bh/worker.lock for the life of a worker, so two
// workers never race over one index and working tree. The flock goes away
// with the process, so a crashed worker never leaves a stale lock.
func LockWorker(bhDir string, now time.Time) (unlock func(), err error) {
	path := filepath.Join(bhDir, "worker.lock")
	if err := store.ClearLockPath(path); err != nil {
		return nil, fmt.Errorf("worker lock: %w", err)
	}
	l := flock.New(path, flock.SetPermissions(0o644))
	ok, err := l.TryLock()
	if err != nil {
		return nil, fmt.Errorf("worker lock: %w", err)
	}
	if !ok {
		return nil, &BusyError{Holder: ReadHolder(path)}
	}
	h := Holder{PID: os.Getpid(), Host: Hostname(), Since: now.UTC()}
	b, _ := json.Marshal(h)
	// Rewriting in place keeps the inode the flock is on.
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		l.Unlock()
		return nil, fmt.Errorf("worker lock: %w", err)
	}
	return func() { l.Unlock() }, nil
}

// ReadHolder is who .bh/worker.lock says holds it; zero when it cannot
// be read (best effort: a busy lock stands without it).
func ReadHolder(path string) Holder {
	var h Holder
	if b, err := os.ReadFile(path); err == nil {
		json.Unmarshal(b, &h)
	}
	return h
}
