// Package ui is bh's terminal, shared by cmd and the board: the I/O
// streams that decide TTY and colour once, escape filtering, tables,
// wrapped text, relative times, state icons and the picker.
package ui

import (
	"bufio"
	"io"
	"os"
	"strconv"

	"github.com/fatih/color"
	"golang.org/x/term"
)

// IOStreams is the one place that knows where bh reads and writes, whether
// those are terminals, and whether to colour. Commands never ask os directly.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// Term is the raw terminal (stderr, or stdout) for what draws on it
	// itself: the picker, an editor, a taken-over agent session. Out and
	// ErrOut strip escape sequences from text (see safeWriter).
	Term io.Writer

	raw [2]io.Writer // Out and ErrOut without the filter, for --json

	IsTTY      bool // stdout is a terminal
	IsStdinTTY bool // stdin is a terminal: bh may open an editor or prompt
	// Accessible asks for plain numbered prompts instead of drawn widgets,
	// for screen readers (ACCESSIBLE=1, as charm's tools have it).
	Accessible bool
	// Cols is the terminal's width, for tables and wrapped text; 0 where
	// stdout is no terminal. $COLUMNS says it where bh cannot ask.
	Cols int

	color bool
}

// System wires the process's streams. BH_FORCE_TTY=1 makes bh behave as on
// a terminal (for tests of the terminal paths); NO_COLOR turns colour off,
// CLICOLOR_FORCE on where stdout is no terminal.
func System() *IOStreams {
	force := os.Getenv("BH_FORCE_TTY") == "1"
	s := &IOStreams{
		In:         os.Stdin,
		Term:       os.Stderr,
		raw:        [2]io.Writer{os.Stdout, os.Stderr},
		IsTTY:      force || term.IsTerminal(int(os.Stdout.Fd())),
		IsStdinTTY: force || term.IsTerminal(int(os.Stdin.Fd())),
		Accessible: os.Getenv("ACCESSIBLE") != "",
	}
	s.Out, s.ErrOut = newSafeWriter(os.Stdout, &s.color), newSafeWriter(os.Stderr, &s.color)
	if s.IsTTY {
		s.Cols = terminalWidth()
	}
	force = os.Getenv("CLICOLOR_FORCE") != "" && os.Getenv("CLICOLOR_FORCE") != "0"
	s.color = (s.IsTTY || force) && os.Getenv("NO_COLOR") == ""
	return s
}

// Unfiltered drops the escape filter for machine output: JSON escapes
// control characters itself, and must carry text exactly as it is.
func (s *IOStreams) Unfiltered() {
	if s.raw[0] != nil {
		s.Out, s.ErrOut = s.raw[0], s.raw[1]
	}
}

// Terminal is Term, or ErrOut where no raw terminal was wired (tests).
func (s *IOStreams) Terminal() io.Writer {
	if s.Term != nil {
		return s.Term
	}
	return s.ErrOut
}

// SetColor turns colour on or off (off: --no-color).
func (s *IOStreams) SetColor(on bool) { s.color = on }

// ColorEnabled reports whether output is coloured.
func (s *IOStreams) ColorEnabled() bool { return s.color }

// paint colours text through a color value of its own, so that the decision
// made here holds, whatever fatih/color's global NoColor guessed at start-up.
func (s *IOStreams) paint(text string, attrs ...color.Attribute) string {
	if text == "" || !s.color {
		return text // what a disabled color.Color gives, without making one
	}
	c := color.New(attrs...)
	c.EnableColor()
	return c.Sprint(text)
}

func (s *IOStreams) Bold(t string) string    { return s.paint(t, color.Bold) }
func (s *IOStreams) Faint(t string) string   { return s.paint(t, color.Faint) }
func (s *IOStreams) Red(t string) string     { return s.paint(t, color.FgRed) }
func (s *IOStreams) Green(t string) string   { return s.paint(t, color.FgGreen) }
func (s *IOStreams) Yellow(t string) string  { return s.paint(t, color.FgYellow) }
func (s *IOStreams) Cyan(t string) string    { return s.paint(t, color.FgCyan) }
func (s *IOStreams) Magenta(t string) string { return s.paint(t, color.FgMagenta) }

// Buffer batches writes to stdout until the returned func runs: a listing
// of 10k tasks is otherwise 10k write calls.
func (s *IOStreams) Buffer() (flush func()) {
	orig := s.Out
	w := bufio.NewWriterSize(orig, 64<<10)
	s.Out = w
	return func() {
		w.Flush() // a closed pipe (bh list | head) is not an error worth reporting
		s.Out = orig
	}
}

// terminalWidth is stdout's width: $COLUMNS, else the terminal's, else 80.
func terminalWidth() int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil && w > 0 {
		return w
	}
	return 80
}
