package ending

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
)

// A question's expiry: what becomes of a task whose questions nobody
// answered in time, by its onTimeout policy (fail, defer, default or
// remind). The worker finds the due questions and carries the outcome out.

// TimeoutText says what each expiry outcome did, for the worker's report.
var TimeoutText = map[Outcome]string{
	TimeoutFailed:   "the task failed",
	TimeoutDeferred: "the task is deferred",
	TimeoutDefaults: "default answers used; the task resumes and needs review",
	TimeoutReminded: "reminded",
}

// Expire does what policy p says with t's expired questions (due), by
// by at at; why is the note recorded with it.
func Expire(t *task.Task, p task.HumanPolicy, due []int, at time.Time, by, why string) (Outcome, error) {
	switch p.OnTimeout {
	case task.OnTimeoutRemind:
		e := at.Add(p.Timeout)
		for _, i := range due {
			ei := e
			t.Questions[i].ExpiresAt = &ei
		}
		t.Record(at, task.Event{Kind: task.EventInputReminder, By: by, QuestionID: t.Questions[due[0]].ID,
			Text: fmt.Sprintf("%s: reminded; now expires %s", why, e.Format(time.RFC3339))})
		return TimeoutReminded, nil
	case task.OnTimeoutDefault:
		return useDefaults(t, due, at, by, why)
	case task.OnTimeoutDefer:
		expireAll(t, at, by, why)
		return TimeoutDeferred, t.SetState(task.Deferred, at, by, why)
	}
	expireAll(t, at, by, why)
	return TimeoutFailed, t.SetState(task.Failed, at, by, why)
}

// FirstExpiry is the earliest expiry among the questions t waits on.
func FirstExpiry(t *task.Task) (time.Time, bool) {
	var first time.Time
	if t.State != task.AwaitingInput {
		return first, false
	}
	for _, q := range t.Questions {
		if q.Status == task.QuestionPending && q.ExpiresAt != nil && (first.IsZero() || q.ExpiresAt.Before(first)) {
			first = *q.ExpiresAt
		}
	}
	return first, !first.IsZero()
}

// DueQuestions are the indexes of t's pending questions expired by now.
func DueQuestions(t *task.Task, now time.Time) []int {
	if t.State != task.AwaitingInput {
		return nil
	}
	var out []int
	for i, q := range t.Questions {
		if q.Status == task.QuestionPending && q.ExpiresAt != nil && !q.ExpiresAt.After(now) {
			out = append(out, i)
		}
	}
	return out
}

func expireQuestion(t *task.Task, i int, at time.Time, by, why string) {
	q := &t.Questions[i]
	q.Status = task.QuestionExpired
	t.Record(at, task.Event{Kind: task.EventInputExpired, By: by, QuestionID: q.ID, Text: why})
}

// expireAll expires every question t still waits on: the task is leaving
// awaiting_input, and no answer can come for them any more.
func expireAll(t *task.Task, at time.Time, by, why string) {
	for i := range t.Questions {
		if t.Questions[i].Status == task.QuestionPending {
			expireQuestion(t, i, at, by, why)
		}
	}
}

// useDefaults is onTimeout: default. Each expired question with a default
// is answered with it; one without (or whose default does not fit) is
// expired unanswered. Once nothing is pending the task opens, marked for
// review, and the agent resumes with what it got.
//
// An approval is never taken for granted: an expired approval question
// defers the task with its work parked, since committing unapproved work
// would defeat the gate and re-running the agent would only bring the
// same work back.
func useDefaults(t *task.Task, due []int, at time.Time, by, why string) (Outcome, error) {
	for _, i := range due {
		if q := t.Questions[i]; q.Gate && strings.TrimSpace(q.Default) == "" {
			expireAll(t, at, by, why)
			return TimeoutDeferred, t.SetState(task.Deferred, at, by, why+"; an approval has no default")
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
	return TimeoutDefaults, nil
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
