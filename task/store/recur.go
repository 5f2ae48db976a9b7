package store

import (
	"fmt"
	"time"

	"github.com/bh-tracker/bh/task"
)

// recur makes the task that follows t, a recurring task that a write is
// about to close (was: its state before), for its schedule's next time.
// Every ending writes through here (bh close, bh land, the worker's
// landing, a merged pull request, bh edit), so no command does it itself.
// It runs before the closing write, under t's lock: undo removes the new
// task if that write fails. A task already followed (closed again after a
// reopen, or a write that a crash cut short) is not followed twice.
func (s *Store) recur(was task.State, t *task.Task) (undo func(), err error) {
	noop := func() {}
	if was == task.Closed || t.State != task.Closed || t.Every == "" {
		return noop, nil
	}
	next := t.Recur(s.now().In(time.Local)) // a cron line's hours are the user's
	if next == nil {
		return noop, nil
	}
	tasks, _, err := s.ListBrief()
	if err != nil {
		return nil, fmt.Errorf("%s recurs: %w", t.ID, err)
	}
	if len(task.Followers(tasks, t.ID)) > 0 {
		return noop, nil
	}
	n, err := s.Create(next)
	if err != nil {
		return nil, fmt.Errorf("%s recurs: %w", t.ID, err)
	}
	return func() { s.Remove(n.ID) }, nil
}
