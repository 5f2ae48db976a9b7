// Package board is bh board: a live view of the tasks waiting on the human
// and the agents running, in the terminal, with bubbletea.
package board

import (
	"context"
	"fmt"
	"time"

	"github.com/bh-tracker/bh/cmd/quietterm"
	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task/store"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Options is what the board is given by bh board: the terminal, the store,
// and the commands' own actions, which it runs as they run.
type Options struct {
	IO    *ui.IOStreams
	Store *store.Store
	Self  string // the bh executable, for bh continue
	Now   func() time.Time
	// Answer asks each question task id waits on through p, as bh respond
	// does, and hands the answers to review, which saves them; Stop stops
	// it, as bh stop does. Both write what they did to io.ErrOut.
	Answer func(io *ui.IOStreams, p ui.Picker, id string, review Review) error
	Stop   func(io *ui.IOStreams, id, reason string) error
	// Hint is the advice bh prints with an error, if any.
	Hint func(error) string
}

// Run shows the board on the terminal until the human quits or ctx ends.
func Run(ctx context.Context, opts Options) error {
	m := newBoardModel(opts)
	defer m.close()
	defer m.holds.Flush() // the approvals held when the human quits are theirs: recorded now
	// The widgets colour through lipgloss: make it follow bh's one decision.
	if !opts.IO.ColorEnabled() {
		lipgloss.SetColorProfile(termenv.Ascii)
	}
	quietterm.AskBackground() // like the picker, the board may query the terminal
	_, err := tea.NewProgram(m, tea.WithAltScreen(), tea.WithContext(ctx),
		tea.WithInput(opts.IO.In), tea.WithOutput(opts.IO.Terminal())).Run()
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("board: %w", err)
	}
	return nil
}
