package worker

import (
	"errors"
	"fmt"
	"time"

	"github.com/bh-tracker/bh/task"
)

// recoverDead reopens tasks whose worker died mid-run, so they do not stay
// in progress forever. It runs at start and on the idle tick, while this
// worker holds the tree's lock and runs nothing itself.
func (w *worker) recoverDead() error {
	tasks, _, err := w.s.List()
	if err != nil {
		return err
	}
	for _, t := range tasks {
		if t.State == task.InProgress && t.Lease != nil && w.dead(*t.Lease) {
			if err := w.recoverTask(t.ID, *t.Lease); err != nil {
				return err
			}
		}
	}
	return nil
}

// recoverTask parks what the dead run left in the working tree (told from
// the user's changes by the run's saved baseline) and reopens the task,
// which then resumes the same session.
func (w *worker) recoverTask(id string, lease task.Lease) error {
	b, err := loadBaseline(w.s, id)
	if err != nil {
		return err
	}
	var commit string
	var paths []string
	if b != nil {
		r := &run{t: &task.Task{ID: id}, base: b}
		if commit, paths, err = w.parkWork(r, "recovered"); err != nil {
			return err
		}
	}
	note := fmt.Sprintf("recovered: worker pid %d on %s died (last heartbeat %s)", lease.PID, lease.Host,
		lease.Heartbeat.Format(time.RFC3339))
	if commit != "" {
		note += "; its partial work is parked under " + ParkRef(id)
	}
	t, err := w.s.Update(id, func(t *task.Task) error {
		if t.State != task.InProgress || !sameLease(t.Lease, lease) {
			return errNotOurs // someone else recovered or reclaimed it meanwhile
		}
		at := w.now()
		t.Lease = nil
		t.Record(at, task.Event{Kind: task.EventRunFinished, By: w.opt.Name, Status: "lost", Session: t.SessionID})
		recordParked(t, at, w.opt.Name, commit, paths)
		return t.SetState(task.Open, at, w.opt.Name, note)
	})
	if errors.Is(err, errNotOurs) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("recover %s: %w", id, err)
	}
	removeBaseline(w.s, id)
	w.report(Event{Kind: Recovered, Task: id, Title: t.Title, Summary: note, Paths: paths})
	return nil
}
