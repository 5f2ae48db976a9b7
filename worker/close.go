package worker

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
)

// close records e on the task (then, if given, runs under the task's lock
// with the file's new bytes before they are written), cleans up, notifies
// and reports. next: the task is no longer the worker's (a human took it
// back), and the run ends as lost instead.
func (w *worker) close(r *run, e *ending.Ending, then func([]byte) error) (next *ending.Ending, err error) {
	update := func(t *task.Task) error {
		if e.State != "" && !w.owns(t) {
			return errNotOurs
		}
		return w.record(t, w.now(), r, e)
	}
	t, err := w.s.UpdateThen(r.t.ID, update, then)
	if errors.Is(err, errNotOurs) && e.State != "" {
		return lost(r), nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.t.ID, err)
	}
	if e.State == "" {
		e.Summary = fmt.Sprintf("the task became %s while the worker had it; its work is parked", t.State)
	}
	w.settled(r, *e, t)
	return nil, nil
}

// settled is the last of every ending, once the task records it: the
// run's leftovers go, the notification goes out with the task as it now
// is, and the end is reported.
func (w *worker) settled(r *run, e ending.Ending, t *task.Task) {
	w.cleanup(r, e)
	w.claims.Unclaim(t, w.lease())
	if w.kick != nil {
		w.kickSync() // a question asked, a task landed: others should see it
	}
	w.notify(e.Notify, t)
	w.finished(r, e)
}

// record is the one place an ending meets the task, in a fixed order: the
// run, its result, the work, the questions, the state.
func (w *worker) record(t *task.Task, at time.Time, r *run, e *ending.Ending) error {
	by := w.opt.Name
	if e.Status != "" {
		t.Record(at, task.Event{Kind: task.EventRunFinished, By: by, Status: e.Status, Session: e.Session,
			Text: cmp.Or(e.Text, e.Result.Summary), Stats: e.Stats, CostUSD: e.Spend.CostUSD, Tokens: e.Spend.Tokens()})
	}
	if c := e.Crossed; c != nil {
		t.Record(at, task.Event{Kind: c.Kind, By: by, CostUSD: c.CostUSD, Text: c.Text})
	}
	for _, c := range e.Checks {
		t.Record(at, c)
	}
	if e.Paused != "" {
		t.Record(at, task.Event{Kind: task.EventLimitPaused, By: by, Text: e.Paused})
	}
	t.SessionID = cmp.Or(e.Session, t.SessionID)
	if e.State != "" || claims.Ours(t.Lease, w.opt.Name) {
		t.Lease = nil
	}
	if e.State != "" { // else lost: the human's state stays
		w.recordSaid(t, at, e)
		if err := t.SetState(e.State, at, by, e.Note); err != nil {
			return err
		}
	}
	recordWork(t, at, by, e)
	return nil
}

// recordSaid records what the ending says on the task: its summary,
// and what it asks (or the question kept flat, or why it is blocked).
func (w *worker) recordSaid(t *task.Task, at time.Time, e *ending.Ending) {
	if e.Status != "" && e.Outcome != ending.Stopped {
		t.Summary, t.Details, t.Issues = cmp.Or(e.Summary, e.Result.Summary), cmp.Or(e.Details, e.Result.Details),
			e.Result.Issues
	} else if e.Summary != "" {
		t.Summary = e.Summary
	}
	if e.Outcome == ending.Stopped {
		t.Record(at, task.Event{Kind: task.EventStopped, By: w.opt.Name, Text: e.Text})
	}
	if e.Flat != "" {
		t.Question, t.QuestionContext = e.Flat, e.Context
	}
	switch {
	case e.State == task.Blocked:
		block(t, e.Result)
	case e.Repend != "":
		ending.Repend(t, e.Repend, w.expiry(w.policy(t), at))
	case len(e.Ask) > 0:
		ending.Ask(t, at, e.Ask, e.Context, w.expiry(w.policy(t), at))
		t.Question = cmp.Or(e.Result.Question, t.Question)
	}
}

// recordWork records what happened to the work: parked, discarded or
// committed (whose hash cannot be inside the commit: git log --grep
// "bh-task: <id>" finds it).
func recordWork(t *task.Task, at time.Time, by string, e *ending.Ending) {
	switch {
	case e.Repend != "":
		// the question waits again on the same work, already recorded as parked
	case e.Fate == ending.KeepWork && e.Commit != "":
		t.Record(at, task.Event{Kind: task.EventParked, By: by, Commit: e.Commit,
			Text: git.ParkRef(t.ID) + ": " + strings.Join(e.Paths, ", ")})
	case e.Fate == ending.KeepWork && e.Emptied && claims.LastParked(t) != "":
		// Said, so that no clone takes the older snapshot for the work (adopt).
		t.Record(at, task.Event{Kind: task.EventParked, By: by, Text: git.ParkRef(t.ID) + ": nothing left to keep"})
	case e.Fate == ending.DiscardWork && len(e.Paths) > 0:
		t.Record(at, task.Event{Kind: task.EventRollback, By: by, Text: strings.Join(e.Paths, ", ")})
	case e.Fate == ending.LandWork:
		t.Record(at, task.Event{Kind: task.EventCommit, By: by, Text: strings.Join(e.Paths, ", ")})
	}
	if e.PR != "" {
		t.Record(at, task.Event{Kind: task.EventPR, By: by, Text: e.PR, Commit: e.Commit})
	}
}

// block records why the agent is blocked. It asks nothing: a human
// unblocks the task by reopening it.
func block(t *task.Task, res agent.Result) {
	t.Question, t.QuestionContext = cmp.Or(res.Question, res.Summary), res.QuestionContext
}

// finished reports the end of r's run.
func (w *worker) finished(r *run, e ending.Ending) {
	ev := Event{Kind: Finished, Task: r.t.ID, Title: r.t.Title, Session: e.Session, Outcome: e.Outcome,
		Summary: cmp.Or(e.Summary, e.Result.Summary), Paths: e.Paths, Elapsed: time.Since(r.started), Attempt: r.t.Attempt}
	switch {
	case e.Outcome == ending.Completed || e.Outcome == ending.Kept || e.Outcome == ending.InReview:
		ev.Commit, ev.PR = e.Commit, e.PR
	case e.Flat != "":
		ev.Question, ev.Questions = e.Flat, []string{e.Flat}
	case len(e.Ask) > 0:
		ev.Questions = ending.QuestionTexts(e.Ask)
		ev.Question = cmp.Or(e.Result.Question, ev.Questions[0])
	case e.Outcome == ending.Blocked:
		ev.Question = cmp.Or(e.Result.Question, e.Result.Summary)
		ev.Questions = []string{ev.Question}
	}
	if e.Err != "" {
		ev.Err = errors.New(e.Err)
	}
	if e.Outcome == ending.AgentError {
		ev.Summary = e.Err // the line reads "failed: agent error: <why>"
	}
	w.report(ev)
}

// lost is the ending of a run whose task a human took back: the human
// has the last word, and the work is kept.
func lost(r *run) *ending.Ending {
	e := ending.Decide(ending.Facts{What: ending.RunLost, Session: r.session})
	return &e
}
