package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"github.com/bh-tracker/bh/task"
)

// ErrChanged means a task file changed on disk after it was read.
var ErrChanged = errors.New("the task file changed while you were editing it")

// Replace is Put for an edit made from old, the file's bytes when the edit
// began: under the task's lock it writes t only if the file still holds old,
// so that a hand edit cannot silently undo what the worker wrote meanwhile.
//
// edited is the file as the user wrote it: t is written on top of it, so
// that their comments and keys stay.
func (s *Store) Replace(t *task.Task, old, edited []byte) error {
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
	b, err := task.Render(t, edited)
	if err != nil {
		return err
	}
	if _, err := task.Decode(s.RelPath(t.ID), b, t.ID); err != nil {
		return fmt.Errorf("write %s: %w", t.ID, err)
	}
	return s.writeEnding(t, b)
}

// Answer records a human's answers to task id under its lock, stamped
// with the store's clock, and counts the input.received events they left.
// Every channel answers through it (act.Answer), so that their checks
// and the history they leave are the same.
func (s *Store) Answer(id string, ans []task.Answer, by string) (*task.Task, int, error) {
	n := 0
	t, err := s.Update(id, func(t *task.Task) error {
		before := len(t.History)
		if err := t.Answer(ans, s.now(), by); err != nil {
			return err
		}
		for _, e := range t.History[before:] {
			if e.Kind == task.EventInputReceived {
				n++
			}
		}
		return nil
	})
	return t, n, err
}
