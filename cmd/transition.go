package cmd

import (
	"fmt"
	"slices"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
)

// moveTask changes a task's state as a human asked, through the state table,
// and records it. verb names the move in the message ("closed").
func moveTask(o base, ref string, to task.State, note, verb string) error {
	s, id, err := o.resolve(ref)
	if err != nil {
		return err
	}
	now := stamp(o.Now)
	t, err := s.Update(id, func(t *task.Task) error {
		return t.SetState(to, now, "human", note)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(o.IO.ErrOut, "%s %s %s\n", ui.StateIcon(o.IO, t.State), verb, t.ID)
	return o.result(t)
}

func notState(states ...task.State) func(*task.Task) bool {
	return func(t *task.Task) bool { return !slices.Contains(states, t.State) }
}
