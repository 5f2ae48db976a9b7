package cmd

import (
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
	return moveTask(opts.base, opts.ID, task.Deferred, "", "deferred")
}
