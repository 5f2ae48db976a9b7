package worker

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/repo"
)

var pidSelf = os.Getpid()

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
		at := now(w.s)
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

// conflict handles parked work that no longer applies to the tree: nothing
// runs, and the task waits for a human with the files named.
func (w *worker) conflict(r *run, ce *repo.ConflictError) error {
	removeBaseline(w.s, r.t.ID)
	ref := ParkRef(r.t.ID)
	q := fmt.Sprintf("The partial work parked for %s conflicts with the working tree in %s. "+
		"Commit, stash or revert your changes to those files (see it with: git diff HEAD %s), "+
		"or drop it with: git update-ref -d %s; then answer to resume.",
		r.t.ID, strings.Join(ce.Paths, ", "), r.t.ID, ref)
	var texts []string
	_, err := w.s.Update(r.t.ID, func(t *task.Task) error {
		at := now(w.s)
		t.Lease = nil
		texts = ask(t, at, agent.Result{Question: q, QuestionContext: ce.Error()}, nil)
		return t.SetState(task.AwaitingInput, at, w.opt.Name, "parked work conflicts: "+strings.Join(ce.Paths, ", "))
	})
	if err != nil {
		return fmt.Errorf("%s: %w", r.t.ID, err)
	}
	w.finished(r, Event{Outcome: Conflict, Summary: ce.Error(), Question: texts[0], Questions: texts, Paths: ce.Paths})
	return nil
}

func sameLease(l *task.Lease, m task.Lease) bool {
	return l != nil && l.Worker == m.Worker && l.PID == m.PID && l.Host == m.Host && l.StartedAt.Equal(m.StartedAt)
}
