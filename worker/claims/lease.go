package claims

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/gofrs/flock"
)

var pidSelf = os.Getpid()

// Beat is what a run's heartbeat needs of its worker.
type Beat struct {
	Name  string // the worker's
	Now   func() time.Time
	Every time.Duration
	Wake  <-chan struct{} // a task file changed; nil when none is watched
	Lost  func()          // the task is no longer this worker's
}

// Heartbeat renews the lease of task id (and, with c, its remote claim)
// until the returned func is called. It also watches the task: when a
// human takes it back (bh stop defers it, an edit changes it), b.Lost is
// called at once, on a wake, or at the latest on the next beat.
func Heartbeat(s *store.Store, c *Remote, id string, b Beat) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(b.Every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-b.Wake:
				if t, err := s.Get(id); err == nil && !Owns(t, b.Name) {
					b.Lost()
				}
			case <-tick.C:
				if err := b.beat(s, c, id); errors.Is(err, errNotOurs) || errors.Is(err, ErrClaimed) {
					b.Lost()
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}

var errNotOurs = errors.New("lease taken over")

// beat renews the lease once. errNotOurs, ErrClaimed: the task is no
// longer ours.
func (b Beat) beat(s *store.Store, c *Remote, id string) error {
	_, err := s.Update(id, func(t *task.Task) error {
		if !Owns(t, b.Name) {
			return errNotOurs
		}
		t.Lease.Heartbeat = b.Now()
		return nil
	})
	if c != nil && err == nil {
		err = c.Push(id, c.Mine(id), Held, WorkerLease(b.Name, b.Now()))
		if err != nil && !errors.Is(err, ErrClaimed) {
			c.Warn("%s: renew the claim: %v", id, err) // unreachable: retried on the next beat
			err = nil
		}
	}
	return err
}

// Owns reports whether t is in progress under the lease of this process,
// a worker named name.
func Owns(t *task.Task, name string) bool { return t.State == task.InProgress && Ours(t.Lease, name) }

// Ours reports whether l is the lease of this process, a worker named name.
func Ours(l *task.Lease, name string) bool {
	return l != nil && l.Worker == name && l.PID == pidSelf && l.Host == Hostname()
}

// Dead reports whether a lease's worker is gone: on this host its process
// has exited (or is this very process: the caller skips the tasks it is
// running, so a lease of its own left over is a dead run's), anywhere
// its heartbeat is older than ttl at now. Hand claims are the human's.
func Dead(l task.Lease, now time.Time, ttl time.Duration) bool {
	if l.Worker == HandWorker || l.PID == 0 {
		return false
	}
	if l.Host == Hostname() && (l.PID == pidSelf || !alive(l.PID)) {
		return true
	}
	return now.Sub(l.Heartbeat) > ttl
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// SameLease reports whether l is the lease m.
func SameLease(l *task.Lease, m task.Lease) bool {
	return l != nil && l.Worker == m.Worker && l.PID == m.PID && l.Host == m.Host && l.StartedAt.Equal(m.StartedAt)
}

// Hostname is this machine's name in leases and claims.
func Hostname() string {
	if h := os.Getenv("BH_HOST"); h != "" {
		return h // containers get a new hostname each start: a stable name
	}
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "localhost"
	}
	return h
}

// Holder is who holds the worker lock (worker.lock in store.Local).
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
		return "another worker is already running in this working tree (it holds the worker lock)"
	}
	return fmt.Sprintf("another worker is already running in this working tree (pid %d on %s, since %s)",
		h.PID, h.Host, h.Since.Local().Format("2006-01-02 15:04:05"))
}

// LockWorker takes the worker lock of local (store.Local, out of git
// clean's reach) for the life of a worker, so two workers never race over
// one index and working tree, and writes who holds it to worker.lock
// there. The flock is on the folder itself, not on that file: a file
// removed by hand (rm, a tidy-up script) would leave the lock on a name
// nobody can open again, and a second worker would take a new one. The
// flock goes away with the process, so a crashed worker never leaves a
// stale lock.
func LockWorker(local string, now time.Time) (unlock func(), err error) {
	path := filepath.Join(local, "worker.lock")
	if err := os.MkdirAll(local, 0o755); err != nil {
		return nil, fmt.Errorf("worker lock: %w", err)
	}
	if err := store.ClearLockPath(path); err != nil {
		return nil, fmt.Errorf("worker lock: %w", err)
	}
	l := WorkerFlock(local)
	ok, err := l.TryLock()
	if err != nil {
		return nil, fmt.Errorf("worker lock: %w", err)
	}
	if !ok {
		return nil, &BusyError{Holder: ReadHolder(path)}
	}
	h := Holder{PID: os.Getpid(), Host: Hostname(), Since: now.UTC()}
	b, _ := json.Marshal(h)
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		l.Unlock()
		return nil, fmt.Errorf("worker lock: %w", err)
	}
	return func() { l.Unlock() }, nil
}

// WorkerFlock is the worker lock of local: a flock on the folder, opened
// read-only (a folder opens no other way).
func WorkerFlock(local string) *flock.Flock { return flock.New(local, flock.SetFlag(os.O_RDONLY)) }

// ReadHolder is who the worker lock says holds it; zero when it cannot
// be read (best effort: a busy lock stands without it).
func ReadHolder(path string) Holder {
	var h Holder
	if b, err := os.ReadFile(path); err == nil {
		json.Unmarshal(b, &h)
	}
	return h
}
