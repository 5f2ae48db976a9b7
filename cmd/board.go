package cmd

import (
	"context"
	"fmt"
	"os"

	"github.com/bh-tracker/bh/cmd/board"
	"github.com/spf13/cobra"
)

type BoardOptions struct {
	base
	Ctx context.Context
	// Self is the bh executable, which the board runs for bh continue.
	Self func() (string, error)
}

func newCmdBoard(f *Factory, runF func(*BoardOptions) error) *cobra.Command {
	opts := &BoardOptions{}
	return &cobra.Command{
		Use:   "board",
		Short: "A live board of the tasks waiting on you and the agents running",
		Long: `Show, live in the terminal, the tasks waiting on you (❓, with how many
questions each asks), the tasks whose agent is running (▶, for how long) and
the tasks ready for the worker. The right pane shows the selected task: its
questions, or the running agent's latest steps.

Keys: ↑/↓ or j/k move, enter answers the selected task's questions (as
bh respond does, and with the same checks and history; among several
questions, y, n and s answer an approval), d opens the change a gate waits
on, a header per file, generated and long files folded (there f folds or
unfolds the file under the cursor, ] and [ go from file to file, and c
comments on the line under the cursor: the comments go with your no),
l shows the task's run, live, s stops the task
(bh stop, after you confirm and say why), c opens its agent session
(bh continue; the board comes back when you leave it), q quits. While
answering, esc leaves the questions unanswered. Approving a gate whose
change you did not open asks once; an approval that lands is held for 10
seconds, and u undoes it.

The board needs a terminal; in scripts, use bh list --awaiting or bh inbox.

Exit codes:
  0  the board was closed
  1  an error
  2  usage error: stdin or stdout is not a terminal`,
		Example: `  bh board`,
		Args:    argsRange(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			opts.base, opts.Ctx, opts.Self = f.base(), c.Context(), os.Executable
			return runWith(runF, boardRun, opts)
		},
	}
}

func boardRun(opts *BoardOptions) error {
	if opts.JSON {
		return withHint(usageErrorf("the board has no --json"), "bh list --json and bh inbox --json print the same tasks")
	}
	if !opts.IO.IsTTY || !opts.IO.IsStdinTTY {
		return withHint(usageErrorf("the board needs a terminal on stdin and stdout"),
			"in scripts, bh list --awaiting or bh inbox list what waits for you")
	}
	s, err := opts.Store()
	if err != nil {
		return err
	}
	self, err := opts.Self()
	if err != nil {
		return fmt.Errorf("find bh's own executable for bh continue: %w", err)
	}
	// The board's actions are bh respond's and bh stop's, run with its streams.
	on := func(io *IOStreams) base { b := opts.base; b.IO = io; return b }
	return board.Run(opts.Ctx, board.Options{IO: opts.IO, Store: s, Self: self, Now: opts.Now, Hint: hintFor,
		Answer: func(io *IOStreams, p picker, id string, review board.Review) error {
			return answerTask(on(io), p, id, review)
		},
		Stop: func(io *IOStreams, id, reason string) error {
			return stopRun(&StopOptions{base: on(io), ID: id, Reason: reason})
		},
	})
}

// answerTask is bh respond id on a terminal, through the board's picker; a
// question in words is answered in one line here (bh respond --edit opens
// the editor). The board's review saves the answers.
func answerTask(b base, p picker, id string, review board.Review) error {
	return respondRun(&RespondOptions{base: b, Picker: func(*IOStreams) picker { return p }, ID: id, wordsInline: true, by: "board",
		review: review})
}
