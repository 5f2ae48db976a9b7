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
//
// edited is the file as the user wrote it: t is written on top of it, so
// that their comments and keys stay.
func (s *Store) Replace(t *Task, old, edited []byte) error {
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
	b, err := render(t, edited)
	if err != nil {
		return err
	}
	if _, err := Decode(s.RelPath(t.ID), b, t.ID); err != nil {
		return fmt.Errorf("write %s: %w", t.ID, err)
	}
	return s.writeFile(t.ID, b)
}

// Answer records a human's answers to task id under its lock, stamped
// with the store's clock. bh respond and bh serve both answer through it,
// so that their checks and the history they leave are the same.
func (s *Store) Answer(id string, ans []Answer, by string) (*Task, error) {
	return s.Update(id, func(t *Task) error { return t.Answer(ans, s.now(), by) })
}

// NotAwaitingError is an answer to a task that asks nothing.
type NotAwaitingError struct {
	ID    string
	State State
}

func (e *NotAwaitingError) Error() string {
	return fmt.Sprintf("%s is %s, not awaiting_input: it has no question to answer", e.ID, e.State)
}

// TypedQuestionsError is a reply in words to a task that waits on
// approval or choice questions, which words alone cannot answer.
type TypedQuestionsError struct {
	ID        string
	Questions []Question
}

func (e *TypedQuestionsError) Error() string {
	parts := make([]string, len(e.Questions))
	for i, q := range e.Questions {
		parts[i] = fmt.Sprintf("%s (%s)", q.ID, q.Kind())
	}
	return fmt.Sprintf("%s waits on %s, which a reply in words cannot answer", e.ID, strings.Join(parts, ", "))
}

// Respond answers every question t waits on with the same words, and opens
// t again. It is Answer for the simple case: it refuses a task that waits on
// approval or choice questions (TypedQuestionsError), which need Answer.
// Call it inside Store.Update.
func (t *Task) Respond(answer string, now time.Time, by string) error {
	if t.State != AwaitingInput {
		return &NotAwaitingError{ID: t.ID, State: t.State}
	}
	var ans []Answer
	var typed []Question
	for _, q := range t.Pending() {
		if q.Kind() != FreeformQuestion {
			typed = append(typed, q)
			continue
		}
		ans = append(ans, Answer{QuestionID: q.ID, Values: []string{answer}})
	}
	if len(typed) > 0 {
		return &TypedQuestionsError{ID: t.ID, Questions: typed}
	}
	return t.Answer(ans, now, by)
}
