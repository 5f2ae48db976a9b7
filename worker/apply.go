package worker

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/notify"
)

// apply turns the agent's answer into git and task state.
func (w *worker) apply(kill context.Context, r *run, out *agent.Outcome, runErr error) error {
	if out != nil && out.SessionID != "" {
		r.session = out.SessionID // a resumed session may continue under a new id
	}
	logPath := w.writeLog(r, out, runErr)
	// A merge or rebase begun while the agent ran owns the tree now: bh
	// touches nothing, and the next start recovers the task from its lease.
	if op, err := w.repo.InProgressOp(); err != nil || op != "" {
		if err == nil {
			err = fmt.Errorf("a git %s began while the agent ran; its work stays in the working tree, "+
				"and the task resumes once the %s is over and the worker starts again", op, op)
		}
		return fmt.Errorf("%s: %w", r.t.ID, err)
	}
	// A human who stopped or changed the task while the agent ran has the
	// last word: the result is not applied, the work is parked.
	if cur, err := w.s.Get(r.t.ID); err == nil && !w.owns(cur) {
		return w.lost(r, "", nil)
	}
	if runErr != nil || out == nil {
		if kill.Err() != nil {
			return w.stop(r, runErr)
		}
		return w.agentError(r, runErr, logPath)
	}
	switch res := out.Result; res.Status {
	case agent.StatusCompleted:
		return w.complete(r, res)
	case agent.StatusFailed:
		return w.fail(r, res)
	case agent.StatusBlocked:
		return w.park(r, res, task.Blocked)
	case agent.StatusNeedsInput:
		return w.park(r, res, task.AwaitingInput)
	default:
		return w.agentError(r, fmt.Errorf("unknown result status %q", res.Status), logPath)
	}
}

// complete commits exactly the agent's changes with the closed task file,
// unless the completion must wait for a human's approval. The user's own
// changes stay uncommitted.
func (w *worker) complete(r *run, res agent.Result) error {
	p := w.policy(r.t)
	if why := gateReason(p, res); why != "" {
		return w.gate(r, res, p, why)
	}
	return w.commit(r, "", func(t *task.Task, at time.Time) {
		t.Summary, t.Details, t.Issues = res.Summary, res.Details, res.Issues
		w.recordRun(t, at, r, res)
	})
}

// fail rolls back exactly the agent's changes.
func (w *worker) fail(r *run, res agent.Result) error {
	id := r.t.ID
	paths, err := w.repo.Changed(r.base)
	if err != nil {
		return fmt.Errorf("%s: changes: %w", id, err)
	}
	if err := w.repo.Rollback(r.base, paths); err != nil {
		return w.salvage(r, paths, fmt.Errorf("rollback: %w", err))
	}
	t, err := w.finish(r, func(t *task.Task, at time.Time) error {
		if err := t.SetState(task.Failed, at, w.opt.Name, ""); err != nil {
			return err
		}
		w.takeResult(t, at, r, res)
		if len(paths) > 0 {
			t.Record(at, task.Event{Kind: task.EventRollback, By: w.opt.Name, Text: strings.Join(paths, ", ")})
		}
		return nil
	})
	if errors.Is(err, errNotOurs) {
		return w.lost(r, "", nil) // what was rolled back was to go anyway
	}
	if err != nil {
		return fmt.Errorf("%s: %w", id, err)
	}
	removeBaseline(w.s, id)
	w.notify(notify.EventTaskFailed, t)
	w.finished(r, Event{Outcome: Failed, Summary: res.Summary, Paths: paths})
	return nil
}

// salvage handles a result that could not be recorded (say, someone
// edited the task meanwhile): the work is parked so nothing is lost, and
// the error stops the worker.
func (w *worker) salvage(r *run, paths []string, cause error) error {
	if len(paths) > 0 {
		if _, err := w.repo.Park(ParkRef(r.t.ID), r.base, paths, "bh: "+r.t.ID+" (salvaged)"); err != nil {
			return fmt.Errorf("%s: %w (and parking the work: %v)", r.t.ID, cause, err)
		}
		return fmt.Errorf("%s: %w (the agent's work is parked under %s)", r.t.ID, cause, ParkRef(r.t.ID))
	}
	return fmt.Errorf("%s: %w", r.t.ID, cause)
}

func (w *worker) finished(r *run, e Event) {
	e.Kind, e.Task, e.Title, e.Session = Finished, r.t.ID, r.t.Title, r.session
	e.Elapsed = time.Since(r.started)
	w.report(e)
}

// reason is an agent error as one line for the task.
func reason(err error) string {
	var re *agent.RunError
	if errors.As(err, &re) && re.Reason != "" {
		return re.Reason
	}
	if err == nil {
		return "the agent returned no result"
	}
	return err.Error()
}
