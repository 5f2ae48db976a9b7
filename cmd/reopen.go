package cmd

import (
	"github.com/bh-tracker/bh/task"
	"github.com/spf13/cobra"
)

type ReopenOptions struct {
	base
	ID string
}

func newCmdReopen(f *Factory, runF func(*ReopenOptions) error) *cobra.Command {
	opts := &ReopenOptions{}
	return &cobra.Command{
		Use:               "reopen <id>",
		Short:             "Open a closed, deferred, blocked or failed task again",
		Example:           `  bh reopen a1b2`,
		Args:              argsRange(1, 1, "task id"),
		ValidArgsFunction: completeIDs(f, 1, notState(task.Open, task.InProgress)),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.base, opts.ID = f.base(), args[0]
			if runF != nil {
				return runF(opts)
			}
			return reopenRun(opts)
		},
	}
}

func reopenRun(opts *ReopenOptions) error {
	return moveTask(opts.base, opts.ID, task.Open, "", "reopened")
}
