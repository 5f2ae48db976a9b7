package task

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// ErrChanged means a task file changed on disk after it was read.
var ErrChanged = errors.New("the task file changed while you were editing it")

// Replace is Put for an edit made from old, the file's bytes when the edit
// began: under the task's lock it writes t only if the file still holds old,
// so that a hand edit cannot silently undo what the worker wrote meanwhile.
func (s *Store) Replace(t *Task, old []byte) error {
	l, err := s.lock(t.ID)
	if err != nil {
		return err
	}
	defer l.Unlock()
	cur, err := os.ReadFile(s.Path(t.ID))
	if err != nil {
		return fmt.Errorf("replace %s: %w", t.ID, err)
	}
	if !bytes.Equal(cur, old) {
		return fmt.Errorf("%s: %w", t.ID, ErrChanged)
	}
	return s.write(t)
}

// NotAwaitingError is an answer to a task that asks nothing.
type NotAwaitingError struct {
	ID    string
	State State
}

func (e *NotAwaitingError) Error() string {
	return fmt.Sprintf("%s is %s, not awaiting_input: it has no question to answer", e.ID, e.State)
}

// Respond records a human's answer to what t is waiting on and opens t
// again, so that the worker resumes it with the answer. Call it inside
// Store.Update, so that it checks and changes the task's latest state.
func (t *Task) Respond(answer string, now time.Time, by string) error {
	if t.State != AwaitingInput {
		return &NotAwaitingError{ID: t.ID, State: t.State}
	}
	now = now.UTC()
	t.HumanResponse = answer
	t.HumanRespondedAt = &now
	var ids []string
	for i := range t.Questions {
		if q := &t.Questions[i]; q.Status == QuestionPending {
			at := now
			q.Status, q.Answer, q.AnsweredAt = QuestionAnswered, []string{answer}, &at
			ids = append(ids, q.ID)
		}
	}
	qid := strings.Join(ids, ",")
	if e, ok := t.LastAsked(); ok && qid == "" {
		qid = e.QuestionID
	}
	t.Record(now, Event{Kind: EventInputReceived, By: by, QuestionID: qid, Text: answer})
	return t.SetState(Open, now, by, "answered")
}
