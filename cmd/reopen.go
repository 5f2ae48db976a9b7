package cmd

import (
	"fmt"
	"slices"

	"github.com/bh-tracker/bh/task"
	"github.com/spf13/cobra"
)

type ReopenOptions struct {
	base
	IDs   []string
	State string // reopen every task in this state
}

// reopenStates are the states --state may name: a task there waits on a
// human's say, which reopening gives in bulk (after an outage, say).
var reopenStates = []task.State{task.Failed, task.Blocked, task.Deferred}

func newCmdReopen(f *Factory, runF func(*ReopenOptions) error) *cobra.Command {
	opts := &ReopenOptions{}
	c := &cobra.Command{
		Use:   "reopen <id>... | --state failed",
		Short: "Open closed, deferred, blocked or failed tasks again",
		Long: `Open tasks again: each id given, or with --state every task in that state
(failed, blocked or deferred). Each task is reopened on its own: one that
cannot be is named, and the others are reopened still. With --json, each
reopened task is printed as one JSON object per line.

Exit codes:
  0  every task was reopened
  1  some task could not be (each is named)
  2  usage error`,
		Example: `  bh reopen a1b2
  bh reopen a1b2 c3d4
  bh reopen --state failed`,
		Args:              argsRange(0, -1, "task ids"),
		ValidArgsFunction: completeIDs(f, 1<<10, notState(task.Open, task.InProgress)),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.base, opts.IDs = f.base(), args
			return runWith(runF, reopenRun, opts)
		},
	}
	c.Flags().StringVar(&opts.State, "state", "", "reopen every task in this state (failed, blocked, deferred)")
	return c
}

func reopenRun(opts *ReopenOptions) error {
	switch {
	case opts.State != "" && len(opts.IDs) > 0:
		return usageErrorf("give task ids or --state, not both")
	case opts.State == "" && len(opts.IDs) == 0:
		return usageErrorf("missing task id (or --state failed)")
	}
	ids := opts.IDs
	if opts.State != "" {
		var err error
		if ids, err = idsInState(opts.base, opts.State); err != nil {
			return err
		}
		if len(ids) == 0 {
			fmt.Fprintf(opts.IO.ErrOut, "no task is %s\n", opts.State)
			return nil
		}
	}
	var errs []error
	for _, id := range ids {
		if err := moveTask(opts.base, id, task.Open, "reopened"); err != nil {
			errs = append(errs, err)
			if len(ids) > 1 { // named here; the last error only counts
				printError(opts.IO.ErrOut, opts.JSON, err, hintFor(err))
			}
		}
	}
	switch {
	case len(errs) == 1 && len(ids) == 1:
		return errs[0]
	case len(errs) > 0:
		return fmt.Errorf("%d of %d tasks not reopened", len(errs), len(ids))
	}
	return nil
}

// idsInState lists the tasks in state, which --state may name.
func idsInState(o base, state string) ([]string, error) {
	st, err := task.ParseState(state)
	if err != nil {
		return nil, &usageError{err}
	}
	if !slices.Contains(reopenStates, st) {
		return nil, usageErrorf("--state takes failed, blocked or deferred, not %s", st)
	}
	s, err := o.Store()
	if err != nil {
		return nil, err
	}
	tasks, _, err := s.List()
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, t := range tasks {
		if t.State == st {
			ids = append(ids, t.ID)
		}
	}
	return ids, nil
}
