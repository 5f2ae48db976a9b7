package worker

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/notify"
)

// ParkRef is where a task's partial work waits while the task does.
func ParkRef(id string) string { return "refs/bh/parked/" + id }

// parkWork snapshots the agent's changes under the task's ref and takes
// them out of the working tree, so they cannot leak into another task's
// commit. It returns the snapshot commit ("" when there was nothing).
func (w *worker) parkWork(r *run, why string) (string, []string, error) {
	paths, err := w.repo.Changed(r.base)
	if err != nil {
		return "", nil, err
	}
	return w.parkPaths(r, why, paths)
}

// parkPaths is parkWork for paths the caller already listed.
func (w *worker) parkPaths(r *run, why string, paths []string) (string, []string, error) {
	if len(paths) == 0 {
		return "", nil, nil
	}
	commit, err := w.repo.Park(ParkRef(r.t.ID), r.base, paths, fmt.Sprintf("bh: %s %s\n\nbh-task: %s\n", r.t.ID, why, r.t.ID))
	if err != nil {
		return "", nil, fmt.Errorf("%s: park: %w", r.t.ID, err)
	}
	return commit, paths, nil
}

// park handles needs_input and blocked: the work is kept aside and the
// task waits for a human (an answer, or whatever unblocks it), to go on in
// the same agent session. A task that may not ask a human fails instead.
func (w *worker) park(r *run, res agent.Result, to task.State) error {
	commit, paths, err := w.parkWork(r, string(to))
	if err != nil {
		return err
	}
	p := w.policy(r.t)
	if to == task.AwaitingInput && !p.Allowed {
		return w.noHuman(r, res, commit, paths, asked(res), res.QuestionContext)
	}
	var texts []string
	t, err := w.finish(r, func(t *task.Task, at time.Time) error {
		w.takeResult(t, at, r, res)
		recordParked(t, at, w.opt.Name, commit, paths)
		if to == task.Blocked {
			texts = block(t, res)
		} else {
			texts = ask(t, at, asked(res), res.QuestionContext, w.expiry(p, at))
			if res.Question != "" {
				t.Question = res.Question
			}
		}
		return t.SetState(to, at, w.opt.Name, res.Summary)
	})
	if errors.Is(err, errNotOurs) {
		return w.lost(r, commit, paths)
	}
	if err != nil {
		return fmt.Errorf("%s: %w (its work is parked under %s)", r.t.ID, err, ParkRef(r.t.ID))
	}
	removeBaseline(w.s, r.t.ID)
	outcome, event := NeedsInput, notify.EventInputRequested
	if to == task.Blocked {
		outcome, event = Blocked, notify.EventTaskBlocked
	}
	w.notify(event, t)
	w.finished(r, Event{Outcome: outcome, Summary: res.Summary, Question: texts[0], Questions: texts, Paths: paths})
	return nil
}

// block records why the agent is blocked. It asks nothing: a human
// unblocks the task by reopening it.
func block(t *task.Task, res agent.Result) []string {
	why := res.Question
	if why == "" {
		why = res.Summary
	}
	t.Question, t.QuestionContext = why, res.QuestionContext
	return []string{why}
}

// takeResult puts the agent's result on t and releases the run's lease,
// keeping the session for the next run.
func (w *worker) takeResult(t *task.Task, at time.Time, r *run, res agent.Result) {
	t.Summary, t.Details, t.Issues, t.Lease, t.SessionID = res.Summary, res.Details, res.Issues, nil, r.session
	w.recordRun(t, at, r, res)
}

// recordRun records the end of r's run with the agent's result.
func (w *worker) recordRun(t *task.Task, at time.Time, r *run, res agent.Result) {
	t.Record(at, task.Event{Kind: task.EventRunFinished, By: w.opt.Name, Status: string(res.Status),
		Session: r.session, Text: res.Summary})
}

func recordParked(t *task.Task, at time.Time, by, commit string, paths []string) {
	if commit != "" {
		t.Record(at, task.Event{Kind: task.EventParked, By: by, Commit: commit,
			Text: ParkRef(t.ID) + ": " + strings.Join(paths, ", ")})
	}
}

func recordUnparked(t *task.Task, at time.Time, by, commit string, paths []string) {
	if commit != "" {
		t.Record(at, task.Event{Kind: task.EventUnparked, By: by, Commit: commit,
			Text: "restored " + strings.Join(paths, ", ")})
	}
}

// finish records a run's end on its task, provided the task is still this
// worker's: a human who stopped or changed it meanwhile has the last word
// (errNotOurs, and nothing is written).
func (w *worker) finish(r *run, fn func(t *task.Task, at time.Time) error) (*task.Task, error) {
	return w.s.Update(r.t.ID, func(t *task.Task) error {
		if !w.owns(t) {
			return errNotOurs
		}
		return fn(t, w.now())
	})
}
