package cmd

import (
	"errors"
	"fmt"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/storegit"
	"github.com/spf13/cobra"
)

type RmOptions struct {
	base
	IDs []string
}

func newCmdRm(f *Factory, runF func(*RmOptions) error) *cobra.Command {
	opts := &RmOptions{}
	return &cobra.Command{
		Use:   "rm <id>...",
		Short: "Delete tasks on purpose",
		Long: `Delete task files on purpose. bh keeps a copy of every file it writes
(refs/bh/local/store), so that a task file git clean or git stash takes
away is noticed and put back by bh doctor --fix; a task deleted with bh rm
is forgotten there too, and never comes back. An id whose file is already
gone is forgotten the same way. A task in progress is refused: stop it
first (bh stop). Commit the removal as any other change (bh sync does).`,
		Example:           `  bh rm a1b2 c3d4`,
		Args:              argsRange(1, -1, "task id"),
		ValidArgsFunction: completeIDs(f, 1<<10, notState(task.InProgress)),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.base, opts.IDs = f.base(), args
			return runWith(runF, rmRun, opts)
		},
	}
}

func rmRun(opts *RmOptions) error {
	s, err := opts.Store()
	if err != nil {
		return err
	}
	for _, ref := range opts.IDs {
		id, err := s.Resolve(ref)
		var nf *task.NotFoundError
		if errors.As(err, &nf) && task.ValidID(ref) {
			if forgot, ferr := storegit.ForgetKept(s, ref); ferr != nil {
				err = ferr
			} else if forgot {
				fmt.Fprintf(opts.IO.ErrOut, "forgot bh's copy of %s\n", ref)
				err = nil
			}
		} else if err == nil {
			err = rmOne(opts, s, id)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func rmOne(opts *RmOptions, s *store.Store, id string) error {
	t, err := s.Get(id)
	if err == nil && t.State == task.InProgress {
		return fmt.Errorf("%s is in progress: stop it first (bh stop %s), then bh rm %s", id, id, id)
	}
	if err := s.Remove(id); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "removed %s\n", id)
	return nil
}
