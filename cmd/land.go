package cmd

import (
	"fmt"

	"github.com/bh-tracker/bh/worker"
	"github.com/spf13/cobra"
)

type LandOptions struct {
	base
	ID string
}

func newCmdLand(f *Factory, runF func(*LandOptions) error) *cobra.Command {
	opts := &LandOptions{}
	c := &cobra.Command{
		Use:   "land <id>",
		Short: "Land a task's finished work on its branch now",
		Long: `Land the finished work of a task that git would not land over your
uncommitted changes (it waits with a landing question), once you have
committed or stashed them; or land the commit a task keeps on its branch
bh/<id> (land: branch). The work is rebased onto the target branch if it
moved, then fast-forwarded; git still refuses to overwrite your changes.

Exit codes:
  0  landed
  1  nothing to land, git refused, or another error`,
		Example:           `  bh land a1b2`,
		Args:              argsRange(1, 1, "task id"),
		ValidArgsFunction: completeIDs(f, 1, nil),
		RunE: func(c *cobra.Command, args []string) error {
			opts.base, opts.ID = f.base(), args[0]
			if runF != nil {
				return runF(opts)
			}
			return landRun(opts, c)
		},
	}
	return c
}

func landRun(opts *LandOptions, c *cobra.Command) error {
	s, id, err := opts.resolve(opts.ID)
	if err != nil {
		return err
	}
	if err := worker.LandTask(c.Context(), s, id, "human", worker.Options{Name: "bh land"}); err != nil {
		return err
	}
	t, err := s.Get(id)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "%s is %s\n", id, t.State)
	return nil
}
