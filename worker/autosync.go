package worker

import (
	"fmt"
	"time"

	"github.com/bh-tracker/bh/task/store"
)

// The worker's syncs: on autoSync's interval, when kicked, and while
// claims wait to be handed off (worker/claims).

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
	res, err := syncLocked(w.s, "", true)
	unlock()
	if err != nil {
		w.report(Event{Kind: Warning, Summary: fmt.Sprintf("sync: %v (retried on the next)", err)})
		if len(waits) > 0 {
			w.claims.KeepWaiting(waits, w.lease())
		}
		return
	}
	for _, l := range res.Lost {
		w.report(Event{Kind: Warning, Task: l.Task, Summary: LostLine(l)})
	}
	if res.Pulled > 0 || res.Pushed > 0 {
		w.report(Event{Kind: Synced, Summary: fmt.Sprintf("synced %s with %s: pulled %d, pushed %d", res.Branch, res.Remote, res.Pulled, res.Pushed)})
	}
	if len(ready) > 0 {
		w.claims.HandOff(w.s, ready, w.lease())
	}
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
	every, _ := time.ParseDuration(s.Config.AutoSync)
	return max(every, 0)
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
