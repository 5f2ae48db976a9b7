package task

import (
	"cmp"
	"fmt"
	"time"
)

// LateError is a late answer that cannot be taken: the task has moved on
// since its question timed out. Why says so in words.
type LateError struct {
	ID, Why string
}

func (e *LateError) Error() string {
	return e.ID + " " + e.Why + "; your answer was not taken"
}

// Answerable is t as it takes an answer now: t itself while it waits on a
// question; else, when a question its onTimeout policy settled can still
// take a late one (see late), a copy in which that question waits again.
// The error says why t takes no answer. t is left as it is.
func (t *Task) Answerable() (*Task, error) {
	if t.State == AwaitingInput {
		return t, nil
	}
	c := *t
	c.Questions = append([]Question(nil), t.Questions...)
	if _, err := c.late(); err != nil {
		return nil, err
	}
	return &c, nil
}

// late readies t, which waits on nothing, for a late answer. Whatever the
// onTimeout policy did, the question waits again while the task has not
// moved on since: expired under fail or defer (or default without one),
// or answered with its default under default, whose answer the human's
// then replaces, as long as the task has not run since. It returns the
// questions as they were before, for those left unanswered to go back.
func (t *Task) late() (map[int]Question, error) {
	expired, at, ok := t.timedOut()
	if !ok {
		return nil, t.movedOn()
	}
	before := map[int]Question{}
	for i := range t.Questions {
		q := &t.Questions[i]
		// answered: with its default at the timeout, not by a human since
		defaulted := q.Status == QuestionAnswered && q.AnsweredAt != nil && q.AnsweredAt.Equal(at)
		if expired[q.ID] && (q.Status == QuestionExpired || defaulted && t.State == Open) {
			before[i] = *q
			q.Status, q.Answer, q.Comment, q.AnsweredAt = QuestionPending, nil, "", nil
		}
	}
	if len(before) == 0 {
		return nil, &NotAwaitingError{ID: t.ID, State: t.State}
	}
	return before, nil
}

// timedOut is the questions of t's last round that timed out, when the
// timeout is the last thing that happened to t: its change of state out of
// awaiting_input came with their expiry, and no run or other change since.
func (t *Task) timedOut() (map[string]bool, time.Time, bool) {
	var change *Event
	var at time.Time
	expired := map[string]bool{}
	for i := len(t.History) - 1; i >= 0; i-- {
		switch e := &t.History[i]; e.Kind {
		case EventRunStarted, EventInputRequested:
			return expired, at, change != nil && len(expired) > 0
		case EventState:
			if change != nil { // into awaiting_input: the round began
				return expired, at, len(expired) > 0
			}
			if e.From != AwaitingInput || e.To != t.State {
				return nil, at, false
			}
			at = e.At
			change = e
		case EventInputExpired:
			if change != nil && e.At.Equal(change.At) {
				expired[e.QuestionID] = true
			}
		}
	}
	return expired, at, change != nil && len(expired) > 0
}

// movedOn says in words what t did since its question timed out.
func (t *Task) movedOn() error {
	runs, last := 0, -1
	for i, e := range t.History {
		switch e.Kind {
		case EventRunStarted:
			runs++
		case EventInputExpired:
			last = i
		}
	}
	if last < 0 {
		return &NotAwaitingError{ID: t.ID, State: t.State}
	}
	for i := len(t.History) - 1; i > last; i-- {
		if e := t.History[i]; e.Kind == EventRunStarted {
			return &LateError{ID: t.ID, Why: fmt.Sprintf("ran again since (run %d at %s)", runs, utcStamp(e.At))}
		}
	}
	for i := len(t.History) - 1; i > last; i-- {
		if e := t.History[i]; e.Kind == EventState {
			return &LateError{ID: t.ID, Why: fmt.Sprintf("has moved on since its question timed out (%s by %s at %s)",
				e.To, cmp.Or(e.By, "someone"), utcStamp(e.At))}
		}
	}
	return &NotAwaitingError{ID: t.ID, State: t.State}
}

func utcStamp(at time.Time) string { return at.UTC().Format("2006-01-02 15:04:05 UTC") }
