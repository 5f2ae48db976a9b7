package cmd

import (
	"context"
	"fmt"
	"os"

	"github.com/bh-tracker/bh/cmd/quietterm"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
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
bh respond does, and with the same checks and history), s stops the task
(bh stop, after you confirm and say why), c opens its agent session
(bh continue; the board comes back when you leave it), q quits. While
answering, esc leaves the questions unanswered.

The board needs a terminal; in scripts, use bh list --awaiting or bh inbox.

Exit codes:
  0  the board was closed
  1  an error
  2  usage error: stdin or stdout is not a terminal`,
		Example: `  bh board`,
		Args:    argsRange(0, 0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			opts.base, opts.Ctx, opts.Self = f.base(), c.Context(), os.Executable
			if runF != nil {
				return runF(opts)
			}
			return boardRun(opts)
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
	m := newBoardModel(opts.base, s, self)
	defer m.close()
	// The widgets colour through lipgloss: make it follow bh's one decision.
	if !opts.IO.ColorEnabled() {
		lipgloss.SetColorProfile(termenv.Ascii)
	}
	quietterm.AskBackground() // like the picker, the board may query the terminal
	ctx := opts.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	_, err = tea.NewProgram(m, tea.WithAltScreen(), tea.WithContext(ctx),
		tea.WithInput(opts.IO.In), tea.WithOutput(opts.IO.Terminal())).Run()
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("board: %w", err)
	}
	return nil
}
