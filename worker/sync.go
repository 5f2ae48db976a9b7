package worker

import (
	"fmt"
	"time"

	"github.com/bh-tracker/bh/agent/untrusted"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/jail"
	"github.com/bh-tracker/bh/worker/landing"
	"github.com/bh-tracker/bh/worker/slots"
	"github.com/bh-tracker/bh/worker/storegit"
)

// bh sync, and the worker's syncs: autoSync's, and those that hand the
// remote's claims (worker/claims) off, opened here with this clone's files.

// Sync is storegit.Sync (bh sync) under the landing lock.
func Sync(s *store.Store, remote string, push bool) (storegit.SyncResult, error) {
	unlock, err := landing.Lock(s)
	if err != nil {
		return storegit.SyncResult{}, err
	}
	defer unlock()
	return storegit.Sync(s, remote, push)
}

// openClaims is the shared remote's claims with this clone's files;
// warn (nil: none) hears what failed and is retried.
func openClaims(s *store.Store, r *git.Repo, remote string, ttl time.Duration, now func() time.Time,
	warn func(string, ...any)) *claims.Remote {
	c := claims.NewRemote(r, remote, ttl, now)
	if warn != nil {
		c.Warn = warn
	}
	c.Files = claims.Files{
		DropWorktree: func(id string) error { return r.RemoveWorktree(slots.WorktreePath(s, r, id), slots.Branch(id)) },
		ReadSession: func(id, session string) ([]byte, error) {
			return untrusted.ReadFile(sessionCopy(s, id, session), jail.MaxSession)
		},
		WriteSession: func(id, session string, b []byte) error {
			if _, err := jail.OwnRunDir(s, id, "sessions"); err != nil {
				return err
			}
			return jail.ReplaceFile(sessionCopy(s, id, session), b, 0o644)
		},
	}
	return c
}

// ClaimNextRemote claims the next ready task on the shared remote (the
// config's remote:, else origin) and then here: of several machines
// racing, each task goes to exactly one. ErrNothingReady says none was
// left.
func ClaimNextRemote(s *store.Store, lease task.Lease) (*task.Task, error) {
	r, remote, err := storegit.OpenRemote(s, "")
	if err != nil {
		return nil, err
	}
	return claims.Next(s, openClaims(s, r, remote, claims.HandTTL, claims.Clock(s), nil), lease, nil, ending.Settled)
}

// syncer runs bh sync on the autoSync interval (every; 0: off), when
// kicked (after an ending a human needs to see), and while claims wait to
// be handed off, until stop.
func (w *worker) syncer(stop <-chan struct{}, every time.Duration) {
	period := w.opt.Heartbeat
	if every > 0 {
		period = min(every, period)
	}
	tick := time.NewTicker(period)
	defer tick.Stop()
	last := time.Now()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			if (every == 0 || time.Since(last) < every) && len(w.claims.Waiting()) == 0 {
				continue
			}
		case <-w.kick:
		}
		last = time.Now()
		w.autoSync()
	}
}

// autoSync syncs (with autoSync:, or to hand claims off), then releases
// the claims that waited for it.
func (w *worker) autoSync() {
	waits := w.claims.Waiting() // marked before: their files are in this sync
	if autoSyncEvery(w.s) == 0 && len(waits) == 0 {
		return
	}
	ready := w.claims.PublishAll(w.s, waits)
	unlock, err := w.lockLanding()
	if err != nil {
		w.warnf("sync: %v", err)
		return
	}
	res, err := storegit.Sync(w.s, "", true)
	unlock()
	if err != nil {
		w.report(Event{Kind: Warning, Summary: fmt.Sprintf("sync: %v (retried on the next)", err)})
		w.claims.KeepWaiting(waits, w.lease())
		return
	}
	w.limits.Share(res.Remote)
	for _, l := range res.Lost {
		w.report(Event{Kind: Warning, Task: l.Task, Summary: storegit.LostLine(l)})
	}
	if res.Pulled > 0 || res.Pushed > 0 {
		w.report(Event{Kind: Synced, Summary: fmt.Sprintf("synced %s with %s: pulled %d, pushed %d", res.Branch, res.Remote, res.Pulled, res.Pushed)})
	}
	w.claims.HandOff(w.s, ready, w.lease())
}

// kickSync asks the syncer for a sync soon; kicks coalesce.
func (w *worker) kickSync() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// autoSyncEvery is the config's autoSync interval; 0 when off.
func autoSyncEvery(s *store.Store) time.Duration {
	return s.Config.AutoSync.D
}

// startSyncer starts the syncer when the worker shares through a remote:
// on autoSync's interval, or (without autoSync) only to hand claims off.
// The returned func stops it after a last sync.
func (w *worker) startSyncer() (stop func()) {
	every := autoSyncEvery(w.s)
	if every == 0 && w.claims == nil {
		return func() {}
	}
	w.kick = make(chan struct{}, 1)
	w.autoSync() // first: answers given elsewhere, tasks added elsewhere; and the orphans adopted at start handed off
	done, finished := make(chan struct{}), make(chan struct{})
	go func() { w.syncer(done, every); close(finished) }()
	return func() { close(done); <-finished; w.autoSync() } // last: nothing left unshared
}
