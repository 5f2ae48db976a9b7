package landing

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/notify"
)

// Shepherd follows the pull requests of the tasks in review, with the
// worker's rules for what a human is asked and told.
type Shepherd struct {
	S            *store.Store
	GH           GH
	Name         string // who records the changes
	ReviewRounds int    // rounds of feedback before a human is asked
	Now          func() time.Time
	Policy       func(*task.Task) task.HumanPolicy
	Expiry       func(p task.HumanPolicy, at time.Time) *time.Time // a question asked at at
	Notify       func(event string, t *task.Task)
}

// errMoved is a task no longer in review when its decision is applied.
var errMoved = errors.New("no longer in review")

// Run polls the pull request of every task in review once and acts on
// what it finds: merged closes the task, closed unmerged asks the human,
// and new feedback (a failed check with its log, review comments with
// file and line, a conflict with the base) reopens it so that a worker
// resumes the same session, which pushes to the same pull request. Each
// change is one update of the task file, which records what it answered:
// a crash before it is polled again, one after is not redone.
func (sh Shepherd) Run(ctx context.Context) error {
	brief, _, err := sh.S.ListBrief() // the cache's quick listing: most stores have none in review
	if err != nil {
		return err
	}
	var errs []string
	for _, b := range brief {
		if b.State != task.InReview {
			continue
		}
		t, err := sh.S.Get(b.ID) // whole, history included: its PR and the feedback seen
		if err == nil {
			err = sh.one(ctx, t)
		}
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", b.ID, err))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("shepherd: %s", strings.Join(errs, "; "))
	}
	return nil
}

func (sh Shepherd) one(ctx context.Context, t *task.Task) error {
	rv, err := sh.GH.Poll(ctx, t)
	switch {
	case err != nil:
		return err
	case rv.Merged:
		return sh.reviewed(t.ID, func(t *task.Task, at time.Time) error {
			t.Summary = cmp.Or(t.Summary, "merged")
			return t.SetState(task.Closed, at, sh.Name, "pull request merged: "+rv.URL)
		})
	case rv.Closed:
		return sh.reviewed(t.ID, func(t *task.Task, at time.Time) error {
			return sh.escalate(t, at, fmt.Sprintf("The pull request %s was closed without being merged. "+
				"Answer with guidance to resume the agent (its next completion opens a new one), or close the task.", rv.URL), "")
		})
	case len(rv.Keys) == 0:
		return nil
	}
	return sh.reviewed(t.ID, func(t *task.Task, at time.Time) error {
		t.Record(at, task.Event{Kind: task.EventFeedback, By: sh.Name, Text: rv.Text,
			Context: strings.Join(rv.Keys, " "), Commit: rv.Head})
		if n := ReviewRounds(t); n > sh.ReviewRounds {
			return sh.escalate(t, at, fmt.Sprintf("%d rounds of feedback on %s did not settle it. "+
				"Answer with guidance to resume the agent, or close the task.", n-1, rv.URL), rv.Text)
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(rv.Text, "### "), "\n")
		return t.SetState(task.Open, at, sh.Name, "pull request feedback: "+strings.Join(strings.Fields(first), " "))
	})
}

// reviewed applies one decision to a task still in review, atomically,
// and tells the human when it now waits on them.
func (sh Shepherd) reviewed(id string, f func(*task.Task, time.Time) error) error {
	t, err := sh.S.Update(id, func(t *task.Task) error {
		if t.State != task.InReview {
			return errMoved // a human or another worker moved it meanwhile
		}
		return f(t, sh.Now())
	})
	switch {
	case errors.Is(err, errMoved):
		return nil
	case err == nil && t.State == task.AwaitingInput:
		sh.Notify(notify.EventInputRequested, t)
	case err == nil && t.State == task.Failed: // escalated under human: false
		sh.Notify(notify.EventTaskFailed, t)
	}
	return err
}

// escalate asks the human about a pull request (a freeform question:
// guidance resumes the session); a task that may not ask (human: false)
// fails instead, the question kept flat.
func (sh Shepherd) escalate(t *task.Task, at time.Time, question, context string) error {
	p := sh.Policy(t)
	e := ending.Decide(ending.Facts{What: ending.PRReview, Policy: p, Reason: question, Cause: context})
	if e.State != task.AwaitingInput {
		t.Summary, t.Details, t.Question, t.QuestionContext = e.Summary, e.Details, e.Flat, e.Context
		return t.SetState(e.State, at, sh.Name, e.Note)
	}
	t.Ask(at, e.Ask, context, sh.Expiry(p, at))
	return t.SetState(task.AwaitingInput, at, sh.Name, e.Note)
}
