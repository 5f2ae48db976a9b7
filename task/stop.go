package task

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// NotStoppableError is a stop asked of a task that is neither waiting nor
// running.
type NotStoppableError struct {
	ID    string
	State State
}

func (e *NotStoppableError) Error() string {
	return fmt.Sprintf("%s is %s: only a waiting or running task can be stopped", e.ID, e.State)
}

// ErrNoReason is a stop without a reason: the history must say why.
var ErrNoReason = errors.New("a stop needs a reason")

// Stoppable says whether Stop accepts t: it waits or runs.
func (t *Task) Stoppable() bool {
	return t.State == AwaitingInput || t.State == InProgress || t.State == Blocked
}

// Stop ends a task that waits (awaiting_input, blocked) or runs
// (in_progress): its pending questions are cancelled, a stopped event keeps
// the reason, and it is deferred, so that bh reopen brings it back and the
// worker resumes the same session. Its parked work and its lease are left
// alone: parked work lives in git refs, and a running task's worker notices
// the change, stops its agent and releases the lease itself.
func (t *Task) Stop(reason string, now time.Time, by string) error {
	if !t.Stoppable() {
		return &NotStoppableError{ID: t.ID, State: t.State}
	}
	if reason = strings.TrimSpace(reason); reason == "" {
		return ErrNoReason
	}
	for i := range t.Questions {
		if q := &t.Questions[i]; q.Status == QuestionPending {
			q.Status = QuestionCancelled
		}
	}
	t.Record(now, Event{Kind: EventStopped, By: by, Text: reason})
	return t.SetState(Deferred, now, by, "stopped")
}
