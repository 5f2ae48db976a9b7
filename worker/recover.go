package worker

import (
	"errors"
	"fmt"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/journal"
	"github.com/bh-tracker/bh/worker/slots"
)

// recoverDead finishes what dead workers left: a task in progress under a
// dead lease gets its journaled ending carried out (or, if its agent was
// still running, its work parked and the task reopened, to resume the same
// session), and a run whose task was already recorded gets its leftovers
// cleaned up. It runs at start and on the idle tick. What one task's
// recovery meets (a git lock, say) goes to failed; only trouble with the
// whole store is returned. The worker's stop ends it (a check under way
// included): what is left waits for the next start.
func (w *worker) recoverDead(failed func(runEnd)) error {
	tasks, _, err := w.s.List()
	if err != nil {
		return err
	}
	if !w.recoverLeased(tasks, failed) {
		return nil
	}
	ids, err := journal.List(w.s)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if t, err := w.s.Get(id); err == nil && t.State != task.InProgress && !w.isActive(id) {
			w.tidy(t)
		}
	}
	return nil
}

// recoverLeased recovers each of tasks in progress under a dead lease;
// false: the worker's stop ended it.
func (w *worker) recoverLeased(tasks []*task.Task, failed func(runEnd)) bool {
	fetched := false
	for _, t := range tasks {
		if w.stopping().Err() != nil {
			return false
		}
		if t.State != task.InProgress || t.Lease == nil {
			continue
		}
		if w.claims != nil && !fetched && t.Lease.Host != claims.Hostname() {
			fetched = true // once, and only when a foreign lease needs its claim read
			if err := w.claims.Fetch(); err != nil {
				w.warnf("claims: %v", err)
			}
		}
		if !w.isActive(t.ID) && w.dead(*t.Lease) && !w.foreignAlive(t) {
			failed(runEnd{t.ID, w.recoverTask(t.ID, *t.Lease)})
		}
	}
	return true
}

// recoverTask takes over a dead worker's task: its leftover agent is
// stopped, the lease becomes this worker's, and the run ends as journaled.
func (w *worker) recoverTask(id string, lease task.Lease) error {
	j, err := journal.Load(w.s, id)
	if err != nil {
		return err
	}
	if j != nil {
		w.killLeftover(j)
	}
	mine := w.lease()
	t, err := w.s.Update(id, func(t *task.Task) error {
		if t.State != task.InProgress || !claims.SameLease(t.Lease, lease) {
			return errNotOurs // someone else recovered or reclaimed it meanwhile
		}
		t.Lease = &mine
		return nil
	})
	if errors.Is(err, errNotOurs) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("recover %s: %w", id, err)
	}
	w.setActive(id, true)
	defer w.setActive(id, false)
	w.claims.TakeOver(id, mine)
	note := w.recoveryNote(lease, j)
	w.report(Event{Kind: Recovered, Task: id, Title: t.Title, Summary: note})
	if j == nil { // the run never got as far as its worktree: nothing to keep
		return w.reopenLost(id, note)
	}
	r := &run{t: t, started: time.Now(), session: t.SessionID, j: j}
	r.j.Lease = mine
	if err := w.reopenWorktree(r); err != nil {
		return err
	}
	if j.Ending != nil {
		return w.end(r, *j.Ending)
	}
	return w.end(r, ending.Decide(ending.Facts{What: ending.RunRecovered, Cause: note, Session: r.session}))
}

// recoveryNote says, in the task's history, why a dead lease's run is
// recovered.
func (w *worker) recoveryNote(lease task.Lease, j *journal.Journal) string {
	switch {
	case claims.Ours(&lease, w.opt.Name):
		note := "retrying the ending that waited"
		if j != nil && j.Waiting != "" {
			note += ": " + j.Waiting
		}
		return note
	case j != nil && j.Waiting != "": // stopped, say, in its checks
		return fmt.Sprintf("recovered: worker pid %d on %s is gone, its ending waiting: %s", lease.PID, lease.Host, j.Waiting)
	}
	return fmt.Sprintf("recovered: worker pid %d on %s died (last heartbeat %s)", lease.PID, lease.Host,
		lease.Heartbeat.Format(time.RFC3339))
}

// reopenLost opens again a recovered task whose run never got as far as
// its worktree.
func (w *worker) reopenLost(id, note string) error {
	t, err := w.s.Update(id, func(t *task.Task) error {
		if !w.owns(t) {
			return errNotOurs
		}
		t.Lease = nil
		t.Record(w.now(), task.Event{Kind: task.EventRunFinished, By: w.opt.Name, Status: "lost", Session: t.SessionID})
		return t.SetState(task.Open, w.now(), w.opt.Name, note)
	})
	if errors.Is(err, errNotOurs) {
		return nil
	}
	if err == nil {
		w.claims.Unclaim(t, w.lease()) // the adopted claim, handed off
	}
	return err
}

// reopenWorktree opens the journaled worktree of a recovered run, if
// anything of the task's is in it, its base settled.
func (w *worker) reopenWorktree(r *run) error {
	j := r.j
	var err error
	if r.wt, err = w.repo.OpenWorktree(j.Worktree, j.Branch); err != nil {
		return err
	}
	if r.wt != nil && slots.In(w.s, w.repo, j.Worktree) && (!slots.Holds(w.s, w.repo, r.wt.Path, j.Task) || r.wt.RecordedBase() == "") {
		r.wt = nil // a slot the kill left before or during its reset: nothing of the task's is in it
	}
	if r.wt == nil {
		return nil
	}
	return w.keepBase(r.wt, j)
}

// keepBase settles the base of a dead run's worktree: the one recorded
// with the worktree; else, for a worktree the kill cut short, its parked
// work restored first (never lost to an empty snapshot), or the journal's
// (the start prepare wrote before making the worktree), recorded then, so
// that later runs in the worktree measure the work from it too.
func (w *worker) keepBase(wt *git.Worktree, j *journal.Journal) error {
	if b := wt.RecordedBase(); b != "" {
		j.Base = b
		return nil
	}
	snap, err := w.repo.Ref(git.ParkRef(j.Task))
	if err != nil {
		return err
	}
	if _, err := w.fillWorktree(wt, snap, false, ""); err != nil {
		return err
	}
	if b := wt.RecordedBase(); b != "" {
		j.Base = b
		return nil
	}
	if j.Base == "" {
		b, err := wt.Base(j.Target)
		if err != nil {
			return err
		}
		j.Base = b
	}
	return wt.SetBase(j.Base)
}

// tidy finishes the cleanup of a run whose task already records its end.
func (w *worker) tidy(t *task.Task) {
	j, err := journal.Load(w.s, t.ID)
	if err != nil || j == nil {
		return
	}
	r := &run{t: t, j: j}
	e := ending.Ending{}
	if j.Ending != nil {
		e = *j.Ending
	}
	if e.Fate == ending.DiscardWork {
		if err := w.pool.Drop(w.s, w.repo, t.ID, j.Worktree, j.Branch); err != nil {
			w.warnf("%s: %v", t.ID, err)
			return
		}
	}
	w.cleanup(r, e)
}
