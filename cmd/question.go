package cmd

import (
	"fmt"
	"time"

	"github.com/bh-tracker/bh/task"
)

// numQ is a pending question and its number in the current round.
type numQ struct {
	N int
	Q task.Question
}

// numbered pairs each question t waits on with its number for --question:
// its place among the questions of the current round (those asked since
// the oldest pending one), answered or not, so that a number stays put as
// answers come in.
func numbered(t *task.Task) []numQ {
	qs := t.OpenQuestions()
	if len(qs) == 0 {
		return nil
	}
	since := qs[0].AskedAt
	for _, q := range qs {
		if q.AskedAt.Before(since) {
			since = q.AskedAt
		}
	}
	var out []numQ
	n := 0
	for _, q := range t.Questions {
		if q.AskedAt.Before(since) {
			continue
		}
		n++
		if q.Status == task.QuestionPending {
			out = append(out, numQ{n, qs[len(out)]})
		}
	}
	if len(out) == 0 { // the flat question
		return []numQ{{1, qs[0]}}
	}
	return out
}

// askedAt is when the current question was asked: its input.requested
// event, or failing that the last update.
func askedAt(t *task.Task) time.Time {
	if e, ok := t.LastAsked(); ok {
		return e.At
	}
	return t.UpdatedAt
}

// expiryText says when a question expires: "expires in 3h", "expired 5m ago".
func expiryText(now, at time.Time) string {
	if at.After(now) {
		return "expires in " + shortDur(at.Sub(now))
	}
	return "expired " + shortDur(now.Sub(at)) + " ago"
}

// shortDur writes a duration the way people say it: 45s, 12m, 2h, 3d.
func shortDur(d time.Duration) string {
	const day = 24 * time.Hour
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < day:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd", int(d/day))
}

// kindNote is how a question is answered, shown beside it: "[yes/no]".
func kindNote(q task.Question) string {
	switch q.Kind() {
	case task.ApprovalQuestion:
		return "[yes/no]"
	case task.ChoiceQuestion:
		if q.MultiSelect {
			return "[pick one or more]"
		}
		return "[pick one]"
	}
	return ""
}

// respondHint is the command that answers what t waits on.
func respondHint(t *task.Task) string {
	qs := t.Pending()
	if len(qs) != 1 {
		return "bh respond " + t.ID
	}
	return "bh respond " + t.ID + flagsFor(qs[0])
}

// flagsFor is how bh respond's flags answer a question, after the id.
func flagsFor(q task.Question) string {
	switch q.Kind() {
	case task.ApprovalQuestion:
		return ` --yes | --no "feedback"`
	case task.ChoiceQuestion:
		return " --choice LABEL | --other TEXT"
	}
	return ""
}
