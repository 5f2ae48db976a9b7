package cmd

import (
	"fmt"

	"github.com/bh-tracker/bh/worker/act"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/spf13/cobra"
)

type DeferOptions struct {
	base
	ID string
}

func newCmdDefer(f *Factory, runF func(*DeferOptions) error) *cobra.Command {
	opts := &DeferOptions{}
	return &cobra.Command{
		Use:               "defer <id>",
		Short:             "Put a task aside; the worker skips it until it is reopened",
		Example:           `  bh defer a1b2`,
		Args:              argsRange(1, 1, "task id"),
		ValidArgsFunction: completeIDs(f, 1, notState(task.Deferred, task.Closed)),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.base, opts.ID = f.base(), args[0]
			return runWith(runF, deferRun, opts)
		},
	}
}

func deferRun(opts *DeferOptions) error {
	return moveTask(opts.base, opts.ID, task.Deferred, "deferred")
}

// moveTask changes a task's state as a human asked, through the state table,
// and records it. verb names the move in the message ("deferred").
func moveTask(o base, ref string, to task.State, verb string) error {
	s, id, err := o.resolve(ref)
	if err != nil {
		return err
	}
	t, err := act.Move(s, id, to, stamp(o.Now), "human")
	if err != nil {
		return err
	}
	fmt.Fprintf(o.IO.ErrOut, "%s %s %s\n", ui.StateIcon(o.IO, t.State), verb, t.ID)
	return o.result(t)
}
