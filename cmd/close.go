package cmd

import (
	"github.com/bh-tracker/bh/task"
	"github.com/spf13/cobra"
)

type CloseOptions struct {
	base
	ID     string
	Reason string
}

func newCmdClose(f *Factory, runF func(*CloseOptions) error) *cobra.Command {
	opts := &CloseOptions{}
	c := &cobra.Command{
		Use:   "close <id>",
		Short: "Mark a task as done",
		Example: `  bh close a1b2
  bh close a1b2 --reason "done by hand in #42"`,
		Args:              argsRange(1, 1, "task id"),
		ValidArgsFunction: completeIDs(f, 1, notState(task.Closed)),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.base, opts.ID = f.base(), args[0]
			if runF != nil {
				return runF(opts)
			}
			return closeRun(opts)
		},
	}
	c.Flags().StringVar(&opts.Reason, "reason", "", "why the task is closed (kept in its history)")
	return c
}

func closeRun(opts *CloseOptions) error {
	return moveTask(opts.base, opts.ID, task.Closed, opts.Reason, "closed")
}
