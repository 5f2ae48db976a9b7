package worker

import (
	"errors"
	"os"
	"syscall"
	"time"

	"github.com/bh-tracker/bh/task"
)

var pidSelf = os.Getpid()

// heartbeat renews the lease until the returned func is called. It also
// watches the task: when a human takes it back (bh stop defers it, an
// edit changes it), lost is called at once, on the file event, or at the
// latest on the next beat.
func (w *worker) heartbeat(id string, lost func()) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	var wake <-chan struct{}
	unsubscribe := func() {}
	if w.wt != nil {
		wake, unsubscribe = w.wt.Subscribe()
	}
	go func() {
		defer close(finished)
		defer unsubscribe()
		tick := time.NewTicker(w.opt.Heartbeat)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-wake:
				if t, err := w.s.Get(id); err == nil && !w.owns(t) {
					lost()
				}
			case <-tick.C:
				_, err := w.s.Update(id, func(t *task.Task) error {
					if !w.owns(t) {
						return errNotOurs
					}
					t.Lease.Heartbeat = w.now()
					return nil
				})
				if w.claims != nil && err == nil {
					err = w.claims.renew(id, workerLease(w.opt.Name, w.now()))
					if err != nil && !errors.Is(err, ErrClaimed) {
						w.warnf("%s: renew the claim: %v", id, err) // unreachable: retried on the next beat
						err = nil
					}
				}
				if errors.Is(err, errNotOurs) || errors.Is(err, ErrClaimed) {
					lost()
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}

var errNotOurs = errors.New("lease taken over")

// owns reports whether t is in progress under this process's lease.
func (w *worker) owns(t *task.Task) bool { return t.State == task.InProgress && w.ours(t.Lease) }

// ours reports whether l is this process's lease.
func (w *worker) ours(l *task.Lease) bool {
	return l != nil && l.Worker == w.opt.Name && l.PID == pidSelf && l.Host == hostname()
}

// dead reports whether a lease's worker is gone: on this host its process
// has exited (or is this very process: the caller skips the tasks it is
// running, so a lease of its own left over is a dead run's), anywhere
// its heartbeat is older than the TTL. Hand claims are the human's.
func (w *worker) dead(l task.Lease) bool {
	if l.Worker == HandWorker || l.PID == 0 {
		return false
	}
	if l.Host == hostname() && (l.PID == pidSelf || !alive(l.PID)) {
		return true
	}
	return w.now().Sub(l.Heartbeat) > w.opt.LeaseTTL
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

func sameLease(l *task.Lease, m task.Lease) bool {
	return l != nil && l.Worker == m.Worker && l.PID == m.PID && l.Host == m.Host && l.StartedAt.Equal(m.StartedAt)
}
