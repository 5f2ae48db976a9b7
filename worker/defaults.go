package worker

import (
	"errors"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/ending"
)

// useDefaults is onTimeout: default. Each expired question with a default
// is answered with it; one without (or whose default does not fit) is
// expired unanswered. Once nothing is pending the task opens, marked for
// review, and the agent resumes with what it got.
//
// An approval is never taken for granted: an expired approval question
// defers the task with its work parked, since committing unapproved work
// would defeat the gate and re-running the agent would only bring the
// same work back.
func (w *worker) useDefaults(t *task.Task, due []int, at time.Time, why string) (ending.Outcome, error) {
	by := w.opt.Name
	for _, i := range due {
		if q := t.Questions[i]; q.Gate && strings.TrimSpace(q.Default) == "" {
			expireAll(t, at, by, why)
			return ending.TimeoutDeferred, t.SetState(task.Deferred, at, by, why+"; an approval has no default")
		}
	}
	var withDefault []int
	for _, i := range due {
		if strings.TrimSpace(t.Questions[i].Default) == "" {
			expireQuestion(t, i, at, by, why+"; no default")
			continue
		}
		withDefault = append(withDefault, i)
	}
	for _, i := range withDefault {
		q := t.Questions[i]
		// It expired all the same: a late answer replaces the default (task.Answer).
		t.Record(at, task.Event{Kind: task.EventInputExpired, By: by, QuestionID: q.ID, Text: why + "; its default is used"})
		err := t.Answer([]task.Answer{{QuestionID: q.ID, Values: defaultValues(q), Comment: "default, " + why}}, at, by)
		var ae *task.AnswerError
		if errors.As(err, &ae) {
			expireQuestion(t, i, at, by, why+"; its default does not fit: "+ae.Reason)
			continue
		}
		if err != nil {
			return "", err
		}
	}
	t.NeedsReview = true
	if t.State == task.AwaitingInput && !waiting(t) {
		if err := t.SetState(task.Open, at, by, why+"; defaults used"); err != nil {
			return "", err
		}
	}
	return ending.TimeoutDefaults, nil
}

// defaultValues splits a multi-select default ("a, b") into its labels.
func defaultValues(q task.Question) []string {
	if !q.MultiSelect || q.Kind() != task.ChoiceQuestion {
		return []string{q.Default}
	}
	return strings.Split(q.Default, ",")
}

// waiting reports whether any typed question of t is still pending.
func waiting(t *task.Task) bool {
	for _, q := range t.Questions {
		if q.Status == task.QuestionPending {
			return true
		}
	}
	return false
}
