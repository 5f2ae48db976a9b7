package worker

import (
	"errors"
	"fmt"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/ending"
)

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
// expiry still ahead, or time a scheduled task waits for (zero if none).
func (w *worker) checkTimeouts() (time.Time, error) {
	tasks, _, err := w.s.List() // unreadable files are bh list's to report
	if err != nil {
		return time.Time{}, err
	}
	now := w.clock()
	var next time.Time
	for _, t := range tasks {
		e, ok := ending.FirstExpiry(t)
		if ok && !e.After(now) {
			if e, err = w.expire(t.ID, now); err != nil {
				return time.Time{}, err
			}
		}
		if e.After(now) {
			next = task.Earliest(next, e)
		}
	}
	return task.Earliest(next, task.Soonest(tasks, now)), nil
}

var errNothingDue = errors.New("nothing expired")

// expire applies t's onTimeout policy and returns its next expiry, if any.
func (w *worker) expire(id string, now time.Time) (time.Time, error) {
	var out ending.Outcome
	var why, first string
	t, err := w.s.Update(id, func(t *task.Task) error {
		due := ending.DueQuestions(t, now)
		if len(due) == 0 {
			return errNothingDue // answered or stopped since the listing
		}
		p := w.policy(t)
		why, first = "no answer within "+span(p.Timeout), t.Questions[due[0]].Question
		var err error
		out, err = ending.Expire(t, p, due, now.Truncate(time.Second), w.opt.Name, why)
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
		Summary: why + ": " + ending.TimeoutText[out]})
	next, _ := ending.FirstExpiry(t)
	return next, nil
}
