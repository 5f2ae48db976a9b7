package worker

import (
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/storegit"
)

// The worker's side of the claim protocol (worker/claims): its lease and
// its heartbeat. sync.go opens the remote's claims and hands them off.

// heartbeat renews the lease until the returned func is called, and calls
// lost when the task stops being this worker's (claims.Heartbeat).
func (w *worker) heartbeat(id string, lost func()) (stop func()) {
	var wake <-chan struct{}
	unsubscribe := func() {}
	if w.wt != nil {
		wake, unsubscribe = w.wt.Subscribe()
	}
	// A file git took back (git reset --hard while the task ran) says the
	// task is open: bh's copy is put back, and the run goes on.
	restored := func() {
		for _, say := range storegit.RestoreOlder(w.s) {
			w.warnf("%s", say)
		}
		if t, err := w.s.Get(id); err != nil || !w.owns(t) {
			lost()
		}
	}
	beat := claims.Heartbeat(w.s, w.claims, id, claims.Beat{Name: w.opt.Name, Now: w.now, Every: w.opt.Heartbeat, Wake: wake, Lost: restored})
	return func() { beat(); unsubscribe() }
}

// owns reports whether t is in progress under this process's lease.
func (w *worker) owns(t *task.Task) bool { return claims.Owns(t, w.opt.Name) }

// lease is this worker's lease as of now.
func (w *worker) lease() task.Lease { return claims.WorkerLease(w.opt.Name, w.now()) }

// dead reports whether a lease's worker is gone (claims.Dead).
func (w *worker) dead(l task.Lease) bool { return claims.Dead(l, w.now(), w.opt.LeaseTTL) }

// foreignAlive reports whether t, in progress under another machine's
// lease, is still held there (claims.Remote.HeldElsewhere).
func (w *worker) foreignAlive(t *task.Task) bool { return w.claims.HeldElsewhere(t, w.lease()) }
