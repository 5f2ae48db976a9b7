package cmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/bh-tracker/bh/task/config"
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
	return &cobra.Command{
		Use:   "continue <id>",
		Short: "Take over a waiting or failed task's agent session in this terminal",
		Long: `Open the agent session of a task that waits for you (a question, an
approval), is blocked or failed, in this terminal: claude --resume <session>
(codex resume <thread>) in the task's worktree, where its partial work is,
with the worker's own permissions, git rules and MCP server. bh trusts that
worktree and the API key the worker uses for claude, so it does not ask.

Talk to the agent, let it work, then leave the session. What you said in it
answers the task's questions (your words are recorded as the answer), and
the worker resumes the same session for its result. If you leave without a
word, or the agent cannot start, nothing changes: the questions stay pending.

Exit codes:
  0  the session ended; the task is open again, or unchanged if you said nothing
  1  the task cannot be continued (no session, no claude, not waiting), or
     the agent's session failed before you said anything`,
		Example:           `  bh continue a1b2`,
		Args:              argsRange(1, 1, "task id"),
		ValidArgsFunction: completeIDs(f, 1, nil),
		RunE: func(c *cobra.Command, args []string) error {
			opts.base, opts.Ctx, opts.ID = f.base(), c.Context(), args[0]
			return runWith(runF, continueRun, opts)
		},
	}
}

func continueRun(opts *ContinueOptions) error {
	s, id, err := opts.resolve(opts.ID)
	if err != nil {
		return err
	}
	term := worker.Terminal{In: opts.IO.In, Out: opts.IO.Terminal(), Err: opts.IO.Terminal(), Attach: opts.IO.AttachPTY}
	taken, err := worker.Continue(opts.Ctx, s, id, term, worker.Options{Name: "continue:" + config.UserName()})
	switch {
	case errors.Is(err, worker.ErrNotStarted):
		return withHint(err, id+" still waits for you: nothing was changed")
	case err != nil:
		return err
	case len(taken.Said) == 0:
		fmt.Fprintf(opts.IO.ErrOut, "you said nothing in the session: %s is unchanged, its questions still pending\n", id)
	default:
		fmt.Fprintf(opts.IO.ErrOut, "%s is open again: what you said answers it, and the worker resumes its session for the result\n", id)
	}
	return nil
}
