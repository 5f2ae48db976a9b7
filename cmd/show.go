package cmd

import (
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/landing"
	"github.com/spf13/cobra"
)

type ShowOptions struct {
	base
	ID string
}

func newCmdShow(f *Factory, runF func(*ShowOptions) error) *cobra.Command {
	opts := &ShowOptions{}
	return &cobra.Command{
		Use:   "show <id>",
		Short: "Show a task: every field, its question and its whole history",
		Long: `Show every field of a task, the question it waits on with its context, and
its history: each question asked, each answer given and each change of state,
with times. With --json, print the task object.`,
		Example: `  bh show a1b2
  bh show a1b2 --json | jq .history`,
		Args:              argsRange(1, 1, "task id"),
		ValidArgsFunction: completeIDs(f, 1, nil),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.base, opts.ID = f.base(), args[0]
			return runWith(runF, showRun, opts)
		},
	}
}

func showRun(opts *ShowOptions) error {
	s, t, err := opts.load(opts.ID)
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeJSON(opts.IO.Out, taskJSON{t, t.PullRequest()})
	}
	parked, err := git.ParkedCommit(s.Root, t.ID)
	if err != nil {
		warn(opts.IO, false, err)
	}
	// Related tasks are shown with their state and title.
	printShow(opts.IO, opts.Now(), t, s.Get, parked != "", landing.CheckRound(t, s.Config.Rounds()))
	return nil
}
