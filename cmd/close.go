package cmd

import (
	"errors"
	"fmt"

	"github.com/bh-tracker/bh/worker/act"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/slots"
	"github.com/spf13/cobra"
)

type CloseOptions struct {
	base
	ID      string
	Reason  string
	Discard bool // close a task holding work that has not landed, throwing the work away
}

func newCmdClose(f *Factory, runF func(*CloseOptions) error) *cobra.Command {
	opts := &CloseOptions{}
	c := &cobra.Command{
		Use:   "close <id>",
		Short: "Mark a task as done",
		Long: `Mark a task as done. A task holding work that has not landed (parked work,
or finished work you approved that waits to land) is not closed: bh land
lands it, and --discard closes it throwing the work away.

Exit codes:
  0  closed
  1  not closed: it holds work that has not landed (without --discard), or
     the state table forbids it`,
		Example: `  bh close a1b2
  bh close a1b2 --reason "done by hand in #42"
  bh close a1b2 --discard`,
		Args:              argsRange(1, 1, "task id"),
		ValidArgsFunction: completeIDs(f, 1, notState(task.Closed)),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.base, opts.ID = f.base(), args[0]
			return runWith(runF, closeRun, opts)
		},
	}
	c.Flags().StringVar(&opts.Reason, "reason", "", "why the task is closed (kept in its history)")
	c.Flags().BoolVar(&opts.Discard, "discard", false, "close it although its work has not landed, throwing the work away")
	return c
}

func closeRun(opts *CloseOptions) error {
	s, t, err := opts.load(opts.ID)
	if err != nil {
		return err
	}
	id := t.ID
	work, err := act.Unlanded(s, t)
	if err != nil {
		return err
	}
	now := stamp(opts.Now)
	t, err = s.Update(id, func(t *task.Task) error {
		return t.MoveHolding(task.Closed, now, "human", opts.Reason, work, opts.Discard)
	})
	var ue *task.UnlandedError
	if errors.As(err, &ue) {
		return withHint(fmt.Errorf("cannot close %s: it holds %s that has not landed", id, ue.Work),
			"bh land "+id+" lands it; bh close "+id+" --discard closes it, throwing the work away")
	}
	if err != nil {
		return err
	}
	if work != "" && opts.Discard {
		if err := slots.DiscardWork(s, id); err != nil {
			warn(opts.IO, opts.JSON, fmt.Errorf("%s is closed, but its work stays: %w", id, err))
		}
	}
	fmt.Fprintf(opts.IO.ErrOut, "%s closed %s\n", ui.StateIcon(opts.IO, t.State), t.ID)
	return opts.result(t)
}
