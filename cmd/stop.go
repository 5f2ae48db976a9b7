package cmd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/worker/act"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/spf13/cobra"
)

type StopOptions struct {
	base
	ID     string
	Reason string
}

func newCmdStop(f *Factory, runF func(*StopOptions) error) *cobra.Command {
	opts := &StopOptions{}
	c := &cobra.Command{
		Use:   "stop <id> --reason TEXT",
		Short: "Stop a waiting or running task, keeping its work for later",
		Long: `Stop a task that is waiting (awaiting_input, blocked) or running
(in_progress). Its pending questions are cancelled, the reason is kept in its
history, and it is deferred: the worker leaves it alone until bh reopen
brings it back, and then resumes the same agent session with its parked
work. A running task's worker sees the change and stops its agent.
Parked work is never thrown away.`,
		Example:           `  bh stop a1b2 --reason "the spec changes next week"`,
		Args:              argsRange(1, 1, "task id"),
		ValidArgsFunction: completeIDs(f, 1, (*task.Task).Stoppable),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.base, opts.ID = f.base(), args[0]
			return runWith(runF, stopRun, opts)
		},
	}
	c.Flags().StringVarP(&opts.Reason, "reason", "r", "", "why the task stops: `TEXT` (required)")
	return c
}

func stopRun(opts *StopOptions) error {
	if strings.TrimSpace(opts.Reason) == "" {
		return usageErrorf("--reason is required: say why the task stops")
	}
	s, id, err := opts.resolve(opts.ID)
	if err != nil {
		return err
	}
	t, running, err := act.Stop(s, id, opts.Reason, stamp(opts.Now), "human")
	var ns *task.NotStoppableError
	if errors.As(err, &ns) {
		return withHint(err, stopHint(ns))
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "%s stopped %s: it is deferred; bh reopen %s brings it back\n", ui.StateIcon(opts.IO, t.State), t.ID, t.ID)
	if running {
		fmt.Fprintf(opts.IO.ErrOut, "its worker will stop the agent and park its work\n")
	}
	return opts.result(t)
}

func stopHint(e *task.NotStoppableError) string {
	switch e.State {
	case task.Open:
		return "nothing runs it yet; bh defer " + e.ID + " puts it aside"
	case task.Deferred:
		return "it is stopped already; bh reopen " + e.ID + " brings it back"
	}
	return "it is finished; bh reopen " + e.ID + " starts it again"
}
