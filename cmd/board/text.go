package board

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/runlog"

	tea "github.com/charmbracelet/bubbletea"
)

// boardText is a long text in the right pane, in place of the task's
// summary: its change (d), or its latest run's steps (l), read again as
// they come. The keys move its cursor.
type boardText struct {
	t     *task.Task
	run   bool
	lines []textLine
	at    int          // the cursor's line
	files []changeFile // the change's files, each under its header (change.go)
	cut   bool         // the change is longer than it shows
}

// textLine is a line of it; a line of the change's new file says which
// (path, line), for comments, and each line of a change its file (1 for
// the first, 0 for none).
type textLine struct {
	text, class string
	path        string
	line        int
	file        int
}

// openRun shows the steps of t's latest run, live while it runs.
func (m *boardModel) openRun(t *task.Task) {
	bt := &boardText{t: t, run: true}
	if err := m.readRun(bt); err != nil {
		m.say(err.Error(), true)
		return
	}
	bt.at, m.text = len(bt.lines)-1, bt
}

// readRun reads the run's log again (as bh transcript and the web's task
// page read it); the cursor follows the steps that come while it is on
// the last.
func (m *boardModel) readRun(bt *boardText) error {
	entries, n, err := runlog.Transcript(store.RunDir(m.s, bt.t.ID), bt.t.ID, 0)
	if err != nil {
		return err
	}
	follow := bt.at >= len(bt.lines)-1
	bt.lines = []textLine{{text: fmt.Sprintf("run %d, the latest (bh transcript %s --run N shows the others)", n, bt.t.ID), class: "hunk"}}
	for _, e := range entries {
		text, class := e.Role+": "+e.Text, "ctx"
		if e.Role == "tool" {
			text, class = e.Text, "meta"
		}
		for _, l := range strings.Split(ui.Wrap(ui.Clean(text), m.paneWidth()-2), "\n") {
			bt.lines = append(bt.lines, textLine{text: l, class: class})
		}
	}
	if follow {
		bt.at = len(bt.lines) - 1
	}
	return nil
}

// textKey acts on a key pressed while the text is shown.
func (m *boardModel) textKey(k string) tea.Cmd {
	bt := m.text
	page := max(m.height/2, 1)
	switch k {
	case "esc", "d", "l", "q":
		m.text = nil
	case "up", "k", "down", "j", "pgup", "pgdown", "home", "g", "end", "G":
		by := map[string]int{"up": -1, "k": -1, "down": 1, "j": 1, "pgup": -page, "pgdown": page,
			"home": -len(bt.lines), "g": -len(bt.lines), "end": len(bt.lines), "G": len(bt.lines)}[k]
		bt.at = min(max(bt.at+by, 0), len(bt.lines)-1)
	case "c":
		if !bt.run {
			return m.comment(bt)
		}
	case "f", "]", "[":
		bt.foldKey(k)
	case "u":
		m.undoHeld()
	case "enter":
		if r, ok := m.rowOf(bt.t.ID); ok { // the task as it is now, not as it was when opened
			return m.act(k, r.t)
		}
		m.say(bt.t.ID+" has left the board: esc goes back to the list", true)
	}
	return nil
}

// comment asks for a comment on the line under the cursor, kept to go
// with a no to the task's gate.
func (m *boardModel) comment(bt *boardText) tea.Cmd {
	l := bt.lines[bt.at]
	if l.line == 0 {
		m.say("a comment goes on a line of the new file: an added line or one around it", true)
		return nil
	}
	var text string
	cmd := m.startDialog(bt.t, func(io *ui.IOStreams, p ui.Picker) error {
		var err error
		text, err = p.Input(fmt.Sprintf("Comment on %s:%d", l.path, l.line), ui.Flatten(l.text))
		if err != nil || strings.TrimSpace(text) == "" {
			return errors.New("no comment added")
		}
		fmt.Fprintf(io.ErrOut, "comment on %s:%d kept: it goes to the agent with your no", l.path, l.line)
		return nil
	})
	m.dlg.after = func() {
		m.notes[bt.t.ID] = append(m.notes[bt.t.ID], task.LineComment{Path: l.path, Line: l.line, Text: text})
	}
	return cmd
}

// textPane is the text, the cursor's line in view, and the comments under
// their lines.
func (m *boardModel) textPane(io *ui.IOStreams, h int) string {
	bt := m.text
	var out []string
	at := 0
	for i, l := range bt.lines {
		mark := "  "
		if i == bt.at {
			mark, at = io.Bold("› "), len(out)
		}
		out = append(out, mark+classed(io, l))
		for _, c := range m.notes[bt.t.ID] {
			if l.line > 0 && c.Path == l.path && c.Line == l.line {
				out = append(out, "    "+io.Yellow("✎ "+ui.Flatten(c.Text)))
			}
		}
	}
	from := min(max(0, at-h/2), max(0, len(out)-h))
	return ui.Clean(strings.Join(out[from:min(len(out), from+h)], "\n"))
}

// classed is a line in its class's colour, as the web colours it.
func classed(io *ui.IOStreams, l textLine) string {
	text := strings.ReplaceAll(l.text, "\t", "    ")
	switch l.class {
	case "add":
		return io.Green(text)
	case "del":
		return io.Red(text)
	case "hunk":
		return io.Cyan(text)
	case "file":
		return io.Bold(text)
	case "meta":
		return io.Faint(text)
	}
	return text
}
