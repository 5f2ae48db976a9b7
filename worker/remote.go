package worker

import (
	"errors"
	"fmt"
	"time"

	"github.com/bh-tracker/bh/agent/untrusted"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/storegit"
)

// SessionRef is where a task's session copy travels between machines.
func SessionRef(id string) string { return "refs/bh/sessions/" + id }

// handTTL is a hand claim's lease on the remote: the human may take long.
const handTTL = 24 * time.Hour

// ClaimNextRemote claims the next ready task on the shared remote (the
// config's remote:, else origin) and then here: of several machines
// racing, each task goes to exactly one. ErrNothingReady says none was
// left.
func ClaimNextRemote(s *store.Store, lease task.Lease) (*task.Task, error) {
	r, remote, err := storegit.OpenRemote(s, "")
	if err != nil {
		return nil, err
	}
	return claimNext(s, newClaims(r, remote, handTTL, func() time.Time { return now(s) }), lease, nil)
}

// claimNext claims the first ready task that no machine holds: first on
// the remote (the race is decided there), then in the local file.
func claimNext(s *store.Store, c *claims, lease task.Lease, skip func(string) bool) (*task.Task, error) {
	if c == nil {
		return claimLocal(s, lease, skip)
	}
	tasks, _, err := s.List()
	if err != nil {
		return nil, err
	}
	ready := without(task.Ready(tasks), skip)
	if len(ready) == 0 {
		return nil, ErrNothingReady // no round trip to the remote for nothing
	}
	if err := c.fetch(); err != nil {
		return nil, err
	}
	tip, err := c.remoteTip() // after the claims: see handoff.go
	if err != nil {
		return nil, err
	}
	for _, cand := range ready {
		if behind(s, c, tip, cand) {
			continue
		}
		prev, err := c.take(cand.ID, lease)
		if errors.Is(err, ErrClaimed) {
			continue
		}
		if err != nil {
			return nil, err
		}
		t, err := Claim(s, cand.ID, lease)
		if err != nil {
			c.release(cand.ID, lease, false)
			var nr *NotReadyError
			if errors.As(err, &nr) {
				continue
			}
			return nil, err
		}
		adopt(s, c, t, prev != nil && (prev.Host != lease.Host || prev.Clone != c.clone))
		return t, nil
	}
	return nil, ErrNothingReady
}

// publish pushes what another machine needs to resume t: its parked work
// and its session copy. Best effort: a remote out of reach leaves the
// claim held (the caller does not release it), so no one resumes without.
func (w *worker) publish(t *task.Task) error {
	refs := []string{}
	if oid, _ := w.repo.Ref(ParkRef(t.ID)); oid != "" {
		refs = append(refs, ParkRef(t.ID))
	}
	if t.SessionID != "" {
		if b, err := untrusted.ReadFile(sessionCopy(w.s, t.ID, t.SessionID), MaxSession); err == nil {
			oid, err := w.repo.CommitFile("", t.SessionID+".jsonl", b, "bh: session of "+t.ID+"\n")
			if err != nil {
				return err
			}
			if err := w.repo.SetRef(SessionRef(t.ID), oid, "bh session"); err != nil {
				return err
			}
			refs = append(refs, SessionRef(t.ID))
		}
	}
	return w.repo.PushRefs(w.claims.remote, refs...)
}

// unclaim ends this worker's remote claim on t as its run settles: done
// for a closed task; otherwise released only once the task file with its
// new state, its parked work and its session are on the remote
// (autoSync, which this kicks, then handOff).
func (w *worker) unclaim(t *task.Task) {
	if w.claims == nil || w.claims.mine(t.ID) == "" {
		return
	}
	if t.State != task.Closed {
		w.claims.wait(t.ID)
		return
	}
	if err := w.claims.release(t.ID, workerLease(w.opt.Name, w.now()), true); err != nil {
		w.warnf("%s: release the claim: %v", t.ID, err)
	}
}

// foreignAlive reports whether t, in progress under another machine's
// lease, is still held there: on a shared remote its claim decides, not
// the heartbeat in a file that travels only with syncs.
func (w *worker) foreignAlive(t *task.Task) bool {
	if w.claims == nil || t.Lease == nil || t.Lease.Host == hostname() {
		return false
	}
	_, cl, err := w.claims.seen(t.ID)
	return err != nil || !w.claims.free(cl, workerLease(w.opt.Name, w.now()))
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
			if (every == 0 || time.Since(last) < every) && len(w.claims.waiting()) == 0 {
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
	waits := w.claims.waiting() // marked before: their files are in this sync
	if autoSyncEvery(w.s) == 0 && len(waits) == 0 {
		return
	}
	ready := w.publishWaiting(waits)
	unlock, err := w.lockLanding()
	if err != nil {
		w.warnf("sync: %v", err)
		return
	}
	res, err := storegit.Sync(w.s, "", true)
	unlock()
	if err != nil {
		w.report(Event{Kind: Warning, Summary: fmt.Sprintf("sync: %v (retried on the next)", err)})
		if len(waits) > 0 {
			w.keepWaiting(waits)
		}
		return
	}
	for _, l := range res.Lost {
		w.report(Event{Kind: Warning, Task: l.Task, Summary: storegit.LostLine(l)})
	}
	if res.Pulled > 0 || res.Pushed > 0 {
		w.report(Event{Kind: Synced, Summary: fmt.Sprintf("synced %s with %s: pulled %d, pushed %d", res.Branch, res.Remote, res.Pulled, res.Pushed)})
	}
	if len(ready) > 0 {
		w.handOff(ready)
	}
}

// kickSync asks the syncer for a sync soon; kicks coalesce.
func (w *worker) kickSync() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}
