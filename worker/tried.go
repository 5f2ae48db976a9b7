package worker

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/attempts"
	"github.com/bh-tracker/bh/worker/budget"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/slots"
)

// tried takes the turn of t, claimed, when several attempts try it side
// by side (worker/attempts), instead of a run: it makes the attempts, asks
// the human to pick one once they all ended, or acts on the pick. done is
// false for any other task.
func (w *worker) tried(t *task.Task) (done bool, err error) {
	if !t.Tried() {
		return false, nil
	}
	as, err := attempts.Of(w.s, t)
	if err != nil {
		return true, w.release(t.ID, err)
	}
	if len(as) < t.Attempts {
		limit, _ := budget.Limit(t, w.s.Config)
		return true, attempts.Fan(w.s, t, limit, w.now(), w.opt.Name)
	}
	switch k, feedback, q := attempts.Picked(t); {
	case q != nil && k == 0:
		return true, w.retryAll(t, as, feedback)
	case q != nil:
		return true, w.pick(t, as, k, q)
	}
	if p := attempts.Pending(as); len(p) > 0 { // claimed by hand before its attempts ended
		return true, w.release(t.ID, fmt.Errorf("its attempts %s have not ended", strings.Join(p, ", ")))
	}
	return true, w.askPick(t, as)
}

// askPick asks the human which of t's attempts lands, with all of them
// side by side.
func (w *worker) askPick(t *task.Task, as []*task.Task) error {
	target, err := w.target(t)
	if err != nil {
		return w.release(t.ID, err)
	}
	rows, err := attempts.Compare(w.repo, t.ID, as, target)
	if err != nil {
		return w.release(t.ID, err)
	}
	q, context := attempts.Ask(rows)
	return w.settleTried(t, task.AwaitingInput, func(t *task.Task) {
		at := w.now()
		ask(t, at, []task.Question{q}, context, w.expiry(w.policy(t), at))
	}, fmt.Sprintf("its %d attempts ended: the human picks one", len(as)), task.EventInputRequested, ending.NeedsInput)
}

// pick lands attempt k of t as bh land lands a kept branch; the others
// leave their branches for refs kept a week. Work that does not land
// (a check failing on the tree that would land, the user's changes in the
// way) asks the pick again, saying why.
func (w *worker) pick(t *task.Task, as []*task.Task, k int, q *task.Question) error {
	if k < 1 || k > len(as) {
		return w.release(t.ID, fmt.Errorf("no attempt %d: it has %d", k, len(as)))
	}
	picked := as[k-1]
	err := w.landKept(picked)
	var nl *ending.NotLandedError
	if errors.As(err, &nl) {
		return w.settleTried(t, task.AwaitingInput, func(t *task.Task) {
			repend(t, q.ID, w.expiry(w.policy(t), w.now()))
		}, fmt.Sprintf("attempt %d did not land: %s", k, nl.Reason), task.EventInputRequested, ending.NeedsInput)
	}
	if err != nil {
		return w.release(t.ID, err)
	}
	for _, a := range as {
		if a == picked {
			continue
		}
		if err := w.keepAttempt(t.ID, a); err != nil {
			w.warnf("%s: %v", t.ID, err)
		}
	}
	return w.settleTried(t, task.Closed, func(t *task.Task) {
		t.Summary, t.Details, t.Agent = picked.Summary, picked.Details, picked.Agent
		t.Record(w.now(), task.Event{Kind: task.EventCommit, By: w.opt.Name,
			Text: fmt.Sprintf("attempt %d (%s) landed", k, picked.ID)})
	}, fmt.Sprintf("picked attempt %d (%s)", k, picked.ID), task.EventTaskCompleted, ending.Completed)
}

// keepAttempt moves attempt a of task id off its branch to the ref it is
// kept under (ref first: a crash between keeps both).
func (w *worker) keepAttempt(id string, a *task.Task) error {
	tip, err := w.repo.BranchTip(slots.Branch(a.ID))
	if err != nil || tip == "" {
		return err
	}
	if err := w.repo.SetRef(git.AttemptRef(id, a.Attempt), tip, "bh attempt not picked"); err != nil {
		return err
	}
	return w.repo.DropBranch(slots.Branch(a.ID))
}

// retryAll sends the human's feedback to every attempt of t, each resumed
// in its own session; t waits on them again.
func (w *worker) retryAll(t *task.Task, as []*task.Task, feedback string) error {
	for _, a := range as {
		if err := attempts.Retry(w.s, a, feedback, w.now(), w.opt.Name); err != nil {
			return w.release(t.ID, err)
		}
	}
	return w.settleTried(t, task.Open, func(t *task.Task) {
		t.Record(w.now(), task.Event{Kind: task.EventFeedback, By: w.opt.Name, Text: feedback,
			Context: "sent to every attempt"})
	}, "none of the attempts was picked: the feedback went to each", "", "")
}

// settleTried records what t's turn did and moves it to state, no longer
// the worker's, then notifies.
func (w *worker) settleTried(t *task.Task, to task.State, change func(*task.Task), note, notify string, out ending.Outcome) error {
	got, err := w.s.Update(t.ID, func(t *task.Task) error {
		if !w.owns(t) {
			return errNotOurs
		}
		change(t)
		t.Lease = nil
		return t.SetState(to, w.now(), w.opt.Name, note)
	})
	if errors.Is(err, errNotOurs) {
		return nil // a human took it back meanwhile: theirs to decide
	}
	if err != nil {
		return fmt.Errorf("%s: %w", t.ID, err)
	}
	w.claims.Unclaim(got, w.lease())
	w.notify(notify, got)
	if out != "" {
		qs := pendingTexts(got)
		w.report(Event{Kind: Finished, Task: t.ID, Title: t.Title, Outcome: out, Summary: cmp.Or(got.Summary, note),
			Questions: qs, Question: strings.Join(qs[:min(1, len(qs))], "")})
	}
	return nil
}

// pendingTexts are the questions t waits on.
func pendingTexts(t *task.Task) []string {
	var out []string
	for _, q := range t.Pending() {
		out = append(out, q.Question)
	}
	return out
}
