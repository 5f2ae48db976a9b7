package worker

import (
	"errors"
	"fmt"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/notify"
)

// agentError fails the task when the agent itself went wrong (crash,
// garbage, timeout): its partial work is parked, not thrown away, and the
// worker goes on with the next task.
func (w *worker) agentError(r *run, cause error, logPath string) error {
	commit, paths, err := w.parkWork(r, "agent error")
	if err != nil {
		return err
	}
	why := reason(cause)
	t, err := w.finish(r, func(t *task.Task, at time.Time) error {
		t.Summary, t.Lease, t.SessionID = "agent error: "+why, nil, r.session
		if logPath != "" {
			t.Details = "run log: " + logPath
		}
		t.Record(at, task.Event{Kind: task.EventRunFinished, By: w.opt.Name, Status: string(AgentError),
			Session: r.session, Text: why})
		recordParked(t, at, w.opt.Name, commit, paths)
		return t.SetState(task.Failed, at, w.opt.Name, "agent error: "+why)
	})
	if errors.Is(err, errNotOurs) {
		return w.lost(r, commit, paths)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", r.t.ID, err)
	}
	removeBaseline(w.s, r.t.ID)
	w.notify(notify.EventTaskFailed, t)
	w.finished(r, Event{Outcome: AgentError, Summary: why, Paths: paths, Err: cause})
	return nil
}

// stop handles an agent the kill context stopped: the work is parked and
// the task goes back to open, to resume its session on the next start.
func (w *worker) stop(r *run, cause error) error {
	commit, paths, err := w.parkWork(r, "stopped")
	if err != nil {
		return err // the task stays in progress: the next start recovers it
	}
	_, err = w.finish(r, func(t *task.Task, at time.Time) error {
		t.Lease, t.SessionID = nil, r.session
		t.Record(at, task.Event{Kind: task.EventRunFinished, By: w.opt.Name, Status: string(Stopped), Session: r.session})
		t.Record(at, task.Event{Kind: task.EventStopped, By: w.opt.Name, Text: reason(cause)})
		recordParked(t, at, w.opt.Name, commit, paths)
		return t.SetState(task.Open, at, w.opt.Name, "stopped; resumes on the next start")
	})
	if errors.Is(err, errNotOurs) {
		return w.lost(r, commit, paths)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", r.t.ID, err)
	}
	removeBaseline(w.s, r.t.ID)
	w.finished(r, Event{Outcome: Stopped, Paths: paths})
	return nil
}

// lost ends a run whose task a human took back while the agent worked
// (bh stop, an edit): the work is parked, nothing is committed, and the
// task keeps the state the human gave it. Only the run's end, the parked
// work and the release of this worker's lease are recorded.
func (w *worker) lost(r *run, commit string, paths []string) error {
	c, p, err := w.parkWork(r, "stopped")
	if err != nil {
		return err
	}
	if c != "" {
		commit, paths = c, p
	}
	var state task.State
	_, err = w.s.Update(r.t.ID, func(t *task.Task) error {
		at := w.now()
		if w.ours(t.Lease) {
			t.Lease = nil // a stop leaves the lease for its worker to release
		}
		if r.session != "" {
			t.SessionID = r.session // so a reopened task resumes the right session
		}
		t.Record(at, task.Event{Kind: task.EventRunFinished, By: w.opt.Name, Status: string(Stopped),
			Session: r.session, Text: fmt.Sprintf("the task became %s while the worker had it", t.State)})
		recordParked(t, at, w.opt.Name, commit, paths)
		state = t.State
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w (its work is parked under %s)", r.t.ID, err, ParkRef(r.t.ID))
	}
	removeBaseline(w.s, r.t.ID)
	w.finished(r, Event{Outcome: Stopped, Paths: paths,
		Summary: fmt.Sprintf("the task became %s while the worker had it; its work is parked", state)})
	return nil
}
