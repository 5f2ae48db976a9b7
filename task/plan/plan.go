// Package plan is what a planning run (plan: true) means for a task, read
// from the task alone: whether its next run plans or carries out the plan,
// and the plan a human approved, as given or edited. A planning run is
// read-only; it ends with a plan, which waits on a human's approval
// question (task.Question.Plan holds the plan): yes (its comment, if any,
// the plan as the human edited it) lets the same session carry it out, no
// (its comment the feedback) sends the session back to planning.
package plan

import (
	"strings"

	"github.com/bh-tracker/bh/task"
)

// On reports whether t plans before it codes: its own plan:, else the
// config's default (def).
func On(t *task.Task, def bool) bool {
	if t.Plan != nil {
		return *t.Plan
	}
	return def
}

// Gate is t's latest plan question, nil when no planning run ended with a
// plan yet.
func Gate(t *task.Task) *task.Question {
	for i := len(t.Questions) - 1; i >= 0; i-- {
		if t.Questions[i].Plan != "" {
			return &t.Questions[i]
		}
	}
	return nil
}

// Planning reports whether t's next run is a planning run: t plans, and no
// plan of its was approved.
func Planning(t *task.Task, def bool) bool {
	return On(t, def) && !approved(Gate(t))
}

func approved(q *task.Question) bool {
	return q != nil && q.Status == task.QuestionAnswered && len(q.Answer) > 0 && strings.EqualFold(q.Answer[0], "yes")
}

// Approved is t's approved plan, as the human edited it (edited) or as the
// planning run wrote it; ok is false when no plan was approved.
func Approved(t *task.Task) (text string, edited, ok bool) {
	q := Gate(t)
	if !approved(q) {
		return "", false, false
	}
	if c := strings.TrimSpace(q.Comment); c != "" && c != strings.TrimSpace(q.Plan) {
		return q.Comment, true, true
	}
	return q.Plan, false, true
}

// Fresh reports whether t's plan was approved and no run has started
// since: the next run is told to carry it out.
func Fresh(t *task.Task) bool {
	q := Gate(t)
	if !approved(q) {
		return false
	}
	answered := false
	for _, e := range t.History {
		answered = answered || e.Kind == task.EventInputReceived && e.QuestionID == q.ID
		if answered && e.Kind == task.EventRunStarted {
			return false
		}
	}
	return answered
}

// Text is the plan a planning run's result holds: its details, else its
// summary.
func Text(summary, details string) string {
	if d := strings.TrimSpace(details); d != "" {
		return d
	}
	return strings.TrimSpace(summary)
}

// Shown is t's latest plan as its page shows it, with a title that says
// where it stands; "" when t has none.
func Shown(t *task.Task) (title, text string) {
	q := Gate(t)
	switch {
	case q == nil:
		return "", ""
	case approved(q):
		text, edited, _ := Approved(t)
		if edited {
			return "plan (approved as edited)", text
		}
		return "plan (approved)", text
	case q.Status == task.QuestionPending:
		return "plan (waiting for approval)", q.Plan
	}
	return "plan (sent back)", q.Plan
}
