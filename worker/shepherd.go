package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/landing"
)

// Shepherd polls the pull request of every task in review once and acts
// on what it finds: merged closes the task, closed unmerged asks the
// human, and new feedback (a failed check with its log, review comments
// with file and line, a conflict with the base) reopens it so that a
// worker resumes the same session, which pushes to the same pull request.
// Each change is one update of the task file, which records what it
// answered: a crash before it is polled again, one after is not redone.
func Shepherd(ctx context.Context, s *store.Store, opt Options) error {
	opt.defaults(s.Config)
	w := &worker{s: s, opt: opt} // no agent runs here: none is set up
	closeNotifier, err := w.openNotifier()
	if err != nil {
		return err
	}
	defer closeNotifier()
	return w.shepherd(ctx)
}

func (w *worker) shepherd(ctx context.Context) error {
	brief, _, err := w.s.ListBrief() // the cache's quick listing: most stores have none in review
	if err != nil {
		return err
	}
	var errs []string
	for _, b := range brief {
		if b.State != task.InReview {
			continue
		}
		t, err := w.s.Get(b.ID) // whole, history included: its PR and the feedback seen
		if err == nil {
			err = w.shepherdOne(ctx, t)
		}
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", t.ID, err))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("shepherd: %s", strings.Join(errs, "; "))
	}
	return nil
}

func (w *worker) shepherdOne(ctx context.Context, t *task.Task) error {
	rv, err := landing.GH{Bin: w.opt.GH, Dir: w.s.Root}.Poll(ctx, t)
	switch {
	case err != nil:
		return err
	case rv.Merged:
		return w.reviewed(t.ID, func(t *task.Task, at task.Event) error {
			t.Summary = cmp.Or(t.Summary, "merged")
			return t.SetState(task.Closed, at.At, w.opt.Name, "pull request merged: "+rv.URL)
		})
	case rv.Closed:
		return w.reviewed(t.ID, func(t *task.Task, at task.Event) error {
			return w.escalate(t, at, fmt.Sprintf("The pull request %s was closed without being merged. "+
				"Answer with guidance to resume the agent (its next completion opens a new one), or close the task.", rv.URL), "")
		})
	case len(rv.Keys) == 0:
		return nil
	}
	return w.reviewed(t.ID, func(t *task.Task, at task.Event) error {
		t.Record(at.At, task.Event{Kind: task.EventFeedback, By: w.opt.Name, Text: rv.Text,
			Context: strings.Join(rv.Keys, " "), Commit: rv.Head})
		if n := landing.ReviewRounds(t); n > w.opt.ReviewRounds {
			return w.escalate(t, at, fmt.Sprintf("%d rounds of feedback on %s did not settle it. "+
				"Answer with guidance to resume the agent, or close the task.", n-1, rv.URL), rv.Text)
		}
		return t.SetState(task.Open, at.At, w.opt.Name, "pull request feedback: "+strings.Join(strings.Fields(firstLineOf(rv.Text)), " "))
	})
}

// reviewed applies one decision to a task still in review, atomically,
// and tells the human when it now waits on them.
func (w *worker) reviewed(id string, f func(*task.Task, task.Event) error) error {
	t, err := w.s.Update(id, func(t *task.Task) error {
		if t.State != task.InReview {
			return errNotOurs // a human or another worker moved it meanwhile
		}
		return f(t, task.Event{At: w.now()})
	})
	switch {
	case errors.Is(err, errNotOurs):
		return nil
	case err == nil && t.State == task.AwaitingInput:
		w.notify(task.EventInputRequested, t)
	case err == nil && t.State == task.Failed: // escalated under human: false
		w.notify(task.EventTaskFailed, t)
	}
	return err
}

// escalate asks the human about a pull request (a freeform question:
// guidance resumes the session); a task that may not ask (human: false)
// fails instead, the question kept flat.
func (w *worker) escalate(t *task.Task, at task.Event, question, context string) error {
	p := w.policy(t)
	e := ending.Decide(ending.Facts{What: ending.PRReview, Policy: p, Reason: question, Cause: context})
	if e.State != task.AwaitingInput {
		t.Summary, t.Details, t.Question, t.QuestionContext = e.Summary, e.Details, e.Flat, e.Context
		return t.SetState(e.State, at.At, w.opt.Name, e.Note)
	}
	ask(t, at.At, e.Ask, context, w.expiry(p, at.At))
	return t.SetState(task.AwaitingInput, at.At, w.opt.Name, e.Note)
}

func firstLineOf(s string) string {
	l, _, _ := strings.Cut(strings.TrimPrefix(s, "### "), "\n")
	return l
}
