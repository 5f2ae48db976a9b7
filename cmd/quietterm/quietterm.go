// Package quietterm keeps bh from querying the terminal at start-up.
//
// Bubble Tea (behind the answer picker) asks the terminal for its
// background colour in its package init, on every run of every command. A
// terminal that does not answer (script, ssh -tt, CI with a pty, git hooks,
// some editors' shells) stalls bh for 5 s and shows the raw queries. This
// package is initialized before Bubble Tea (packages initialize in import
// path order once their imports are: github.com/bh-tracker sorts before
// github.com/charmbracelet) and settles the question without asking; the
// picker asks for real when it is shown (see AskBackground).
package quietterm

import (
	"os"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func init() { lipgloss.SetHasDarkBackground(true) }

// AskBackground queries the terminal on stdout for its background, now
// that a picker is about to be shown on it.
func AskBackground() {
	lipgloss.SetHasDarkBackground(termenv.NewOutput(os.Stdout).HasDarkBackground())
}
