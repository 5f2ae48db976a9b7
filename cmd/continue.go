package cmd

import (
	"context"
	"fmt"

	"github.com/bh-tracker/bh/worker"
	"github.com/spf13/cobra"
)

type ContinueOptions struct {
	base
	Ctx context.Context
	ID  string
}

func newCmdContinue(f *Factory, runF func(*ContinueOptions) error) *cobra.Command {
	opts := &ContinueOptions{}
	c := &cobra.Command{
		Use:   "continue <id>",
		Short: "Take over a waiting or failed task's agent session in this terminal",
		Long: `Open the agent session of a task that waits for you (a question, an
approval), is blocked or failed, in this terminal: claude --resume <session>
in the task's worktree, where its partial work is. Talk to the agent, let it
work, then leave the session; the task goes back to open and the worker
resumes the same session for its result, with what happened in it.

Exit codes:
  0  the session ended and the task is open again
  1  the task cannot be continued: no session, no claude, or not waiting`,
		Example:           `  bh continue a1b2`,
		Args:              argsRange(1, 1, "task id"),
		ValidArgsFunction: completeIDs(f, 1, nil),
		RunE: func(c *cobra.Command, args []string) error {
			opts.base, opts.Ctx, opts.ID = f.base(), c.Context(), args[0]
			if runF != nil {
				return runF(opts)
			}
			return continueRun(opts)
		},
	}
	return c
}

func continueRun(opts *ContinueOptions) error {
	s, id, err := opts.resolve(opts.ID)
	if err != nil {
		return err
	}
	ctx := opts.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	term := worker.Terminal{In: opts.IO.In, Out: opts.IO.Terminal(), Err: opts.IO.Terminal()}
	if err := worker.Continue(ctx, s, id, term, worker.Options{Name: "bh continue"}); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "%s is open again: the worker resumes its session for the result\n", id)
	return nil
}
