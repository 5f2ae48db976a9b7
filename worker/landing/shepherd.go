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
)

// Shepherd polls the pull request of every task in review once and acts
// on what it finds: merged closes the task, closed unmerged asks the
// human, and new feedback (a failed check with its log, review comments
// with file and line, a conflict with the base) reopens it so that a
// worker resumes the same session, which pushes to the same pull request.
// Each change is one update of the task file, which records what it
// answered: a crash before it is polled again, one after is not redone.
type Shepherd struct {
	Store        *store.Store
	GH           string // the gh binary
	By           string // who records the changes
	ReviewRounds int    // rounds of feedback before the human is asked
	Now          func() time.Time
	Policy       func(*task.Task) task.HumanPolicy
	// Ask makes qs t's pending questions, expiring by policy p.
	Ask    func(t *task.Task, at time.Time, qs []task.Question, context string, p task.HumanPolicy)
	Notify func(event string, t *task.Task)
}

var errMoved = errors.New("no longer in review")

// Poll polls every task in review once.
func (sh Shepherd) Poll(ctx context.Context) error {
	brief, _, err := sh.Store.ListBrief() // the cache's quick listing: most stores have none in review
	if err != nil {
		return err
	}
	var errs []string
	for _, b := range brief {
		if b.State != task.InReview {
			continue
		}
		t, err := sh.Store.Get(b.ID) // whole, history included: its PR and the feedback seen
		if err == nil {
			err = sh.one(ctx, t)
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

func (sh Shepherd) one(ctx context.Context, t *task.Task) error {
	rv, err := GH{Bin: sh.GH, Dir: sh.Store.Root}.Poll(ctx, t)
	switch {
	case err != nil:
		return err
	case rv.Merged:
		return sh.reviewed(t.ID, func(t *task.Task, at task.Event) error {
			t.Summary = cmp.Or(t.Summary, "merged")
			return t.SetState(task.Closed, at.At, sh.By, "pull request merged: "+rv.URL)
		})
	case rv.Closed:
		return sh.reviewed(t.ID, func(t *task.Task, at task.Event) error {
			return sh.escalate(t, at, fmt.Sprintf("The pull request %s was closed without being merged. "+
				"Answer with guidance to resume the agent (its next completion opens a new one), or close the task.", rv.URL), "")
		})
	case len(rv.Keys) == 0:
		return nil
	}
	return sh.reviewed(t.ID, func(t *task.Task, at task.Event) error {
		t.Record(at.At, task.Event{Kind: task.EventFeedback, By: sh.By, Text: rv.Text,
			Context: strings.Join(rv.Keys, " "), Commit: rv.Head})
		if n := ending.ReviewRounds(t); n > sh.ReviewRounds {
			return sh.escalate(t, at, fmt.Sprintf("%d rounds of feedback on %s did not settle it. "+
				"Answer with guidance to resume the agent, or close the task.", n-1, rv.URL), rv.Text)
		}
		return t.SetState(task.Open, at.At, sh.By, "pull request feedback: "+strings.Join(strings.Fields(firstLineOf(rv.Text)), " "))
	})
}

// reviewed applies one decision to a task still in review, atomically,
// and tells the human when it now waits on them.
func (sh Shepherd) reviewed(id string, f func(*task.Task, task.Event) error) error {
	t, err := sh.Store.Update(id, func(t *task.Task) error {
		if t.State != task.InReview {
			return errMoved // a human or another worker moved it meanwhile
		}
		return f(t, task.Event{At: sh.Now()})
	})
	switch {
	case errors.Is(err, errMoved):
		return nil
	case err == nil && t.State == task.AwaitingInput:
		sh.Notify(task.EventInputRequested, t)
	case err == nil && t.State == task.Failed: // escalated under human: false
		sh.Notify(task.EventTaskFailed, t)
	}
	return err
}

// escalate asks the human about a pull request (a freeform question:
// guidance resumes the session); a task that may not ask (human: false)
// fails instead, the question kept flat.
func (sh Shepherd) escalate(t *task.Task, at task.Event, question, context string) error {
	p := sh.Policy(t)
	e := ending.Decide(ending.Facts{What: ending.PRReview, Policy: p, Reason: question, Cause: context})
	if e.State != task.AwaitingInput {
		t.Summary, t.Details, t.Question, t.QuestionContext = e.Summary, e.Details, e.Flat, e.Context
		return t.SetState(e.State, at.At, sh.By, e.Note)
	}
	sh.Ask(t, at.At, e.Ask, context, p)
	return t.SetState(task.AwaitingInput, at.At, sh.By, e.Note)
}

func firstLineOf(s string) string {
	l, _, _ := strings.Cut(strings.TrimPrefix(s, "### "), "\n")
	return l
}
