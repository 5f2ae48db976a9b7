package cmd

import (
	"fmt"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/budget"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
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
	limit, _ := budget.Limit(t, s.Config)
	if opts.JSON {
		return writeJSON(opts.IO.Out, shownTask{taskJSON{t, t.PullRequest()}, t.Spent(), limit})
	}
	parked, err := git.ParkedCommit(s.Root, t.ID)
	if err != nil {
		warn(opts.IO, false, err)
	}
	// Related tasks are shown with their state and title.
	printShow(opts.IO, opts.Now(), t, s.Get, parked != "", ending.CheckRound(t, s.Config.Rounds()), spentText(t, limit))
	return nil
}

// shownTask is a task as bh show --json prints it: with what its runs
// cost in all, and the budget they may spend (its own, its type's or the
// config's, raised by a yes not yet acted on).
type shownTask struct {
	taskJSON
	CostUSD float64 `json:"costUsd"`
	Budget  float64 `json:"budget,omitempty"`
}

// spentText is what t's runs cost in all, against its budget if it has
// one; unknown when it ran and its agent reported no cost.
func spentText(t *task.Task, limit float64) string {
	ran, reported := t.Ran()
	switch spent := t.Spent(); {
	case ran && !reported && limit > 0:
		return fmt.Sprintf("unknown: its agent reports no cost (its budget: %s)", ending.USD(limit))
	case ran && !reported:
		return "unknown: its agent reports no cost"
	case limit > 0:
		return fmt.Sprintf("%s of its %s budget", ending.USD(spent), ending.USD(limit))
	case spent > 0:
		return ending.USD(spent)
	}
	return ""
}
