package worker

import (
	"errors"
	"os"
	"syscall"
	"time"

	"github.com/bh-tracker/bh/task"
)

var pidSelf = os.Getpid()

// heartbeat renews the lease until the returned func is called.
func (w *worker) heartbeat(id string) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(w.opt.Heartbeat)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				w.s.Update(id, func(t *task.Task) error {
					if !w.owns(t) {
						return errNotOurs
					}
					t.Lease.Heartbeat = now(w.s)
					return nil
				})
			}
		}
	}()
	return func() { close(done); <-finished }
}

var errNotOurs = errors.New("lease taken over")

// owns reports whether t is in progress under this process's lease.
func (w *worker) owns(t *task.Task) bool {
	l := t.Lease
	return t.State == task.InProgress && l != nil && l.Worker == w.opt.Name && l.PID == pidSelf && l.Host == hostname()
}

// dead reports whether a lease's worker is gone: on this host its process
// has exited (or is this very process, which runs nothing now), anywhere
// its heartbeat is older than the TTL. Hand claims are the human's.
func (w *worker) dead(l task.Lease) bool {
	if l.Worker == HandWorker || l.PID == 0 {
		return false
	}
	if l.Host == hostname() && (l.PID == pidSelf || !alive(l.PID)) {
		return true
	}
	return now(w.s).Sub(l.Heartbeat) > w.opt.LeaseTTL
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

func sameLease(l *task.Lease, m task.Lease) bool {
	return l != nil && l.Worker == m.Worker && l.PID == m.PID && l.Host == m.Host && l.StartedAt.Equal(m.StartedAt)
}
