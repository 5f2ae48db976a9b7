package cmd

import (
	"github.com/bh-tracker/bh/task"
	"github.com/spf13/cobra"
)

type ReadyOptions struct{ base }

func newCmdReady(f *Factory, runF func(*ReadyOptions) error) *cobra.Command {
	opts := &ReadyOptions{}
	return &cobra.Command{
		Use:   "ready",
		Short: "Show the tasks the worker may take now, in the order it takes them",
		Long: `Show the ready queue: open tasks whose dependencies are all closed, by
priority, then age. This is the order in which bh worker takes them.`,
		Example: `  bh ready
  bh ready --json | jq -r '.[0].id'`,
		Args: argsRange(0, 0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			opts.base = f.base()
			if runF != nil {
				return runF(opts)
			}
			return readyRun(opts)
		},
	}
}

func readyRun(opts *ReadyOptions) error {
	defer opts.IO.Buffer()()
	s, err := opts.Store()
	if err != nil {
		return err
	}
	tasks, bad, err := opts.listing(s)
	if err != nil {
		return err
	}
	warnFiles(opts.IO, opts.JSON, bad)
	warnCycles(opts.IO, opts.JSON, tasks)
	queue := task.Ready(tasks)
	if queue == nil {
		queue = []*task.Task{}
	}
	return printTasks(opts.base, queue, "nothing is ready: no open task has all its dependencies closed")
}
