package worker

import (
	"errors"
	"time"

	"github.com/bh-tracker/bh/agent/untrusted"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/git"
)

// The worker's side of the claim protocol (worker/claims): its lease, its
// files, and its warnings.

var errNotOurs = errors.New("lease taken over")

// heartbeat renews the lease until the returned func is called, and calls
// lost when the task stops being this worker's (claims.Heartbeat).
func (w *worker) heartbeat(id string, lost func()) (stop func()) {
	var wake <-chan struct{}
	unsubscribe := func() {}
	if w.wt != nil {
		wake, unsubscribe = w.wt.subscribe()
	}
	beat := claims.Heartbeat(w.s, w.claims, id, claims.Beat{Name: w.opt.Name, Now: w.now, Every: w.opt.Heartbeat, Wake: wake, Lost: lost})
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

// openClaims is the shared remote's claims with this clone's files;
// warn (nil: none) hears what failed and is retried.
func openClaims(s *store.Store, r *git.Repo, remote string, ttl time.Duration, now func() time.Time,
	warn func(string, ...any)) *claims.Remote {
	c := claims.NewRemote(r, remote, ttl, now)
	if warn != nil {
		c.Warn = warn
	}
	c.Files = claims.Files{
		DropWorktree: func(id string) error { return r.RemoveWorktree(WorktreePath(s, r, id), Branch(id)) },
		ReadSession: func(id, session string) ([]byte, error) {
			return untrusted.ReadFile(sessionCopy(s, id, session), MaxSession)
		},
		WriteSession: func(id, session string, b []byte) error {
			if _, err := ownRunDir(s, id, "sessions"); err != nil {
				return err
			}
			return replaceFile(sessionCopy(s, id, session), b, 0o644)
		},
	}
	return c
}

// ClaimNextRemote claims the next ready task on the shared remote (the
// config's remote:, else origin) and then here: of several machines
// racing, each task goes to exactly one. ErrNothingReady says none was
// left.
func ClaimNextRemote(s *store.Store, lease task.Lease) (*task.Task, error) {
	r, remote, err := openRemote(s, "")
	if err != nil {
		return nil, err
	}
	return claims.Next(s, openClaims(s, r, remote, claims.HandTTL, claims.Clock(s), nil), lease, nil, settled)
}
