package worker

import (
	"errors"
	"fmt"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/notify"
)

// CheckTimeouts applies each task's onTimeout policy (fail, defer,
// default or remind) to its questions that expired by now, and sends the
// notifications through n (which may be nil). A worker does this at start,
// on its tick and when its timer reaches the next expiry; it is exported
// so that tools and tests can drive it with a clock of their own.
func CheckTimeouts(s *store.Store, now time.Time, n *notify.Notifier) error {
	w := &worker{s: s, notifier: n, opt: Options{Now: func() time.Time { return now }}}
	w.opt.defaults(s.Config)
	_, err := w.checkTimeouts()
	return err
}

// timeouts checks the questions when forced, or when the next expiry the
// worker knows of has come.
func (w *worker) timeouts(force bool) error {
	w.mu.Lock()
	next := w.next
	w.mu.Unlock()
	if !force && (next.IsZero() || w.clock().Before(next)) {
		return nil
	}
	next, err := w.checkTimeouts()
	if err != nil {
		return err
	}
	w.mu.Lock()
	w.next = next
	w.mu.Unlock()
	return nil
}

// checkTimeouts handles every expired question and returns the earliest
// expiry still ahead (zero if none).
func (w *worker) checkTimeouts() (time.Time, error) {
	tasks, _, err := w.s.List() // unreadable files are bh list's to report
	if err != nil {
		return time.Time{}, err
	}
	now := w.clock()
	var next time.Time
	for _, t := range tasks {
		e, ok := firstExpiry(t)
		if ok && !e.After(now) {
			if e, err = w.expire(t.ID, now); err != nil {
				return time.Time{}, err
			}
		}
		if !e.IsZero() && e.After(now) && (next.IsZero() || e.Before(next)) {
			next = e
		}
	}
	return next, nil
}

var errNothingDue = errors.New("nothing expired")

// expire applies t's onTimeout policy and returns its next expiry, if any.
func (w *worker) expire(id string, now time.Time) (time.Time, error) {
	var out ending.Outcome
	var why, first string
	t, err := w.s.Update(id, func(t *task.Task) error {
		due := dueQuestions(t, now)
		if len(due) == 0 {
			return errNothingDue // answered or stopped since the listing
		}
		p := w.policy(t)
		why, first = "no answer within "+span(p.Timeout), t.Questions[due[0]].Question
		var err error
		out, err = w.onTimeout(t, p, due, now.Truncate(time.Second), why)
		return err
	})
	if errors.Is(err, errNothingDue) {
		return time.Time{}, nil // the next scan sees the task as it is now
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("timeout %s: %w", id, err)
	}
	switch out {
	case ending.TimeoutReminded:
		w.notify(task.EventInputReminder, t)
	case ending.TimeoutFailed:
		w.notify(task.EventInputExpired, t)
		w.notify(task.EventTaskFailed, t)
	default:
		w.notify(task.EventInputExpired, t)
	}
	w.report(Event{Kind: Expired, Task: t.ID, Title: t.Title, Outcome: out, Question: first,
		Summary: why + ": " + timeoutText[out]})
	next, _ := firstExpiry(t)
	return next, nil
}

var timeoutText = map[ending.Outcome]string{
	ending.TimeoutFailed:   "the task failed",
	ending.TimeoutDeferred: "the task is deferred",
	ending.TimeoutDefaults: "default answers used; the task resumes and needs review",
	ending.TimeoutReminded: "reminded",
}

// onTimeout does what policy p says with t's expired questions (due).
func (w *worker) onTimeout(t *task.Task, p task.HumanPolicy, due []int, at time.Time, why string) (ending.Outcome, error) {
	switch p.OnTimeout {
	case task.OnTimeoutRemind:
		e := at.Add(p.Timeout)
		for _, i := range due {
			ei := e
			t.Questions[i].ExpiresAt = &ei
		}
		t.Record(at, task.Event{Kind: task.EventInputReminder, By: w.opt.Name, QuestionID: t.Questions[due[0]].ID,
			Text: fmt.Sprintf("%s: reminded; now expires %s", why, e.Format(time.RFC3339))})
		return ending.TimeoutReminded, nil
	case task.OnTimeoutDefault:
		return w.useDefaults(t, due, at, why)
	case task.OnTimeoutDefer:
		expireAll(t, at, w.opt.Name, why)
		return ending.TimeoutDeferred, t.SetState(task.Deferred, at, w.opt.Name, why)
	}
	expireAll(t, at, w.opt.Name, why)
	return ending.TimeoutFailed, t.SetState(task.Failed, at, w.opt.Name, why)
}

// firstExpiry is the earliest expiry among the questions t waits on.
func firstExpiry(t *task.Task) (time.Time, bool) {
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

// dueQuestions are the indexes of t's pending questions expired by now.
func dueQuestions(t *task.Task, now time.Time) []int {
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
