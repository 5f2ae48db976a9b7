package cmd

import (
	"fmt"

	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/storegit"
	"github.com/spf13/cobra"
)

type InitOptions struct {
	IO      *IOStreams
	WorkDir func() (string, error)
}

func newCmdInit(f *Factory, runF func(*InitOptions) error) *cobra.Command {
	opts := &InitOptions{}
	return &cobra.Command{
		Use:   "init",
		Short: "Start tracking tasks in this git repository",
		Long: `Create .bh/ at the top of the current git repository and commit it (its
own files only, on the checked-out branch), so that git clean or git stash
never takes it away. With changes of yours staged, in the middle of a merge
or rebase, or on a detached HEAD, it commits nothing and prints the command
that commits it.

Running it again is harmless: nothing that exists is changed. It also
registers bh's merge driver for task files in the repository's git config
(merge.bh-task), so that two branches changing different fields of a task
merge cleanly.`,
		Example: `  git init shop && cd shop && bh init`,
		Args:    argsRange(0, 0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			opts.IO, opts.WorkDir = f.IO, f.WorkDir
			return runWith(runF, initRun, opts)
		},
	}
}

func initRun(opts *InitOptions) error {
	dir, err := opts.WorkDir()
	if err != nil {
		return err
	}
	kept := storegit.KeptConfig(dir) // the tree lost it: bh's copy, not a default
	s, created, err := store.Init(dir)
	if err != nil {
		return err
	}
	config.Register(s.Root) // for bh inbox
	if err := storegit.RegisterMergeDriver(s.Root); err != nil {
		warn(opts.IO, false, err)
	}
	kp := storegit.NewKeeper(s, func(err error) { warn(opts.IO, false, err) })
	s.Keep = kp.Write
	if kept != nil {
		if err := s.PutConfig(kept); err != nil {
			warn(opts.IO, false, err)
		} else {
			fmt.Fprintf(opts.IO.ErrOut, "restored .bh/config.yaml from bh's copy\n")
		}
	}
	if created {
		fmt.Fprintf(opts.IO.ErrOut, "initialized bh in %s\n", s.Dir)
	} else {
		fmt.Fprintf(opts.IO.ErrOut, "bh is already initialized in %s\n", s.Dir)
	}
	if committed, err := storegit.CommitInit(s); err != nil {
		warn(opts.IO, false, err)
	} else if committed {
		fmt.Fprintf(opts.IO.ErrOut, "committed .bh/ (bh's own files only)\n")
	}
	if lost, err := kp.Check(); err != nil {
		warn(opts.IO, false, err)
	} else if lost != nil {
		warn(opts.IO, false, lost)
	}
	return nil
}
