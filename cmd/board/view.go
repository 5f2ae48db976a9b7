package board

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"

	"github.com/charmbracelet/lipgloss"
)

func (m *boardModel) View() string {
	if m.width == 0 {
		return "" // the terminal's size comes first
	}
	io := m.b.IO
	head := io.Bold("bh board") + "  " + io.Faint(filepath.Base(m.s.Root))
	if m.held != "" {
		head += "  " + io.Yellow(m.held)
	}
	keys := fit(m.keys(), m.width)
	h := max(m.height-2-len(keys), 1)
	left := column(m.list(h), m.listWidth(), h)
	bar := io.Faint(strings.TrimSuffix(strings.Repeat(" │ \n", h), "\n"))
	right := column(m.pane(h), m.paneWidth(), h)
	note := ui.Clean(ui.Flatten(m.note)) // errors may quote the agent's text
	if m.noteErr {
		note = io.Red(note)
	}
	if left := m.heldLeft(); left > 0 {
		note = io.Yellow(fmt.Sprintf("%s: your approval lands in %d s · u undoes it", m.heldID, left))
	}
	lines := []string{head, lipgloss.JoinHorizontal(lipgloss.Top, left, bar, right), column(note, m.width, 1)}
	for _, k := range keys {
		lines = append(lines, io.Faint(k))
	}
	return strings.Join(lines, "\n")
}

// keys are the hints of what the keys do now.
func (m *boardModel) keys() []string {
	switch {
	case m.dlg != nil:
		return []string{"esc leave the questions", "the field's own keys below it"}
	case m.text != nil && m.text.run:
		return m.undoKey([]string{"↑/↓ j/k scroll", "esc back"})
	case m.text != nil:
		return m.undoKey([]string{"↑/↓ j/k line", "c comment on it", "enter answer", "esc back"})
	}
	k := []string{"↑/↓ j/k move", "enter answer", "d change", "l run", "s stop", "c continue"}
	if r, ok := m.current(); ok && waitsOnPlan(r.t) {
		k = append(k, "e edit the plan")
	}
	if m.held != "" {
		k = append(k, "r resume")
	}
	return append(m.undoKey(k), "q quit")
}

// undoKey adds u's hint to k while an answer is held: u undoes it in
// every view that says so.
func (m *boardModel) undoKey(k []string) []string {
	if m.heldLeft() > 0 {
		return append(k, "u undo")
	}
	return k
}

// fit puts the hints on as few lines of w columns as they take, each
// hint whole.
func fit(hints []string, w int) []string {
	var lines []string
	for _, h := range hints {
		if n := len(lines); n > 0 && ui.Width(lines[n-1])+3+ui.Width(h) <= w {
			lines[n-1] += " · " + h
			continue
		}
		lines = append(lines, h)
	}
	return lines
}

func (m *boardModel) listWidth() int { return min(max(m.width*2/5, 24), 60) }
func (m *boardModel) paneWidth() int { return max(m.width-m.listWidth()-3, 20) }

// column cuts text to w columns and h lines, and pads it to w.
func column(text string, w, h int) string {
	cut := lipgloss.NewStyle().MaxWidth(w).MaxHeight(h).Render(text)
	return lipgloss.NewStyle().Width(w).Render(cut)
}

// list is the left column: the sections and their tasks, scrolled so that
// the selected one shows in h lines.
func (m *boardModel) list(h int) string {
	io := m.b.IO
	if m.loadErr != nil {
		return io.Red(m.loadErr.Error())
	}
	var lines []string
	at := 0
	for _, sec := range []struct{ name, icon string }{
		{secWaiting, ui.StateIcon(io, task.AwaitingInput)}, {secRunning, io.Cyan("▶")},
		{secReview, ui.StateIcon(io, task.InReview)}, {secReady, ui.StateIcon(io, task.Open)}, {secLater, io.Faint("◷")},
	} {
		n := 0
		for _, r := range m.rows {
			if r.section == sec.name {
				n++
			}
		}
		if n == 0 && (sec.name == secReview || sec.name == secLater) { // shown only when some are
			continue
		}
		lines = append(lines, fmt.Sprintf("%s %s %s", sec.icon, io.Bold(sec.name), io.Faint(fmt.Sprintf("(%d)", n))))
		for _, r := range m.rows {
			if r.section != sec.name {
				continue
			}
			mark := "  "
			if r.t.ID == m.sel {
				mark, at = io.Bold("› "), len(lines)
			}
			lines = append(lines, mark+m.row(r))
		}
	}
	from := max(0, at-h+1)
	return ui.Clean(strings.Join(lines[from:], "\n"))
}

// row is a task's line in the list, after its mark: its id, its title cut
// at a word to fit, and its detail at the right edge.
func (m *boardModel) row(r boardRow) string {
	io := m.b.IO
	room := m.listWidth() - 2 - ui.Width(r.t.ID) - 2 // the mark, and a space either side of the title
	d := m.detail(r, false)
	if room-ui.Width(d) < 12 { // a title needs some room: the detail in brief
		d = m.detail(r, true)
	}
	title := ui.CutWords(ui.Flatten(r.t.Title), room-ui.Width(d))
	pad := strings.Repeat(" ", max(room-ui.Width(d)-ui.Width(title), 0))
	if r.t.ID == m.sel {
		title = io.Bold(title)
	}
	return io.Cyan(r.t.ID) + " " + title + pad + " " + io.Faint(d)
}

// detail is what a row says beside its title: how many questions, for how
// long; in brief, "2q 5m".
func (m *boardModel) detail(r boardRow, brief bool) string {
	switch r.section {
	case secWaiting:
		n, waited := len(r.t.Pending()), task.ShortDur(m.now.Sub(ui.AskedAt(r.t)))
		if brief {
			return fmt.Sprintf("%dq %s", n, waited)
		}
		return ui.Plural(n, "question") + ", " + waited
	case secRunning:
		return task.ShortDur(m.now.Sub(runningSince(r.t)))
	case secReview:
		return task.ShortDur(m.now.Sub(r.t.UpdatedAt))
	case secLater:
		if brief {
			return "in " + task.ShortDur(r.t.NotBefore.Sub(m.now))
		}
		return ui.ScheduleTag(r.t, m.now)
	}
	return string(r.t.Priority)
}

// pane is the right column: the selected task's questions, or its agent's
// latest steps; the question being answered, while a dialog runs.
func (m *boardModel) pane(h int) string {
	r, ok := m.current()
	if m.text != nil { // whatever the selection: the keys go to it
		r, ok = boardRow{t: m.text.t}, true
	}
	if m.dlg != nil {
		r, ok = boardRow{t: m.dlg.t}, true
	}
	if !ok {
		return m.b.IO.Faint("nothing waits on you, and no agent runs")
	}
	var buf bytes.Buffer
	io := *m.b.IO
	io.Out, io.Cols = ui.Safe(&buf), m.paneWidth()
	fmt.Fprintf(io.Out, "%s  %s\n", io.Cyan(r.t.ID), io.Bold(ui.CutWords(ui.Flatten(r.t.Title), io.Cols-ui.Width(r.t.ID)-2)))
	if m.dlg != nil {
		if m.dlg.form != nil {
			return buf.String() + "\n" + m.dialogPane(&io)
		}
		return buf.String() + io.Faint("\nsaving…")
	}
	if m.text != nil {
		return buf.String() + m.textPane(&io, h-1)
	}
	switch r.section {
	case secWaiting:
		m.questionsPane(&io, r.t)
	case secRunning:
		m.stepsPane(&io, r.t)
	default:
		fmt.Fprintf(io.Out, "%s %s, %s\n\n%s\n", ui.StateIcon(&io, r.t.State), r.t.Type, ui.PriorityText(&io, r.t.Priority),
			ui.Wrap(r.t.Description, io.Cols))
	}
	return buf.String()
}

func (m *boardModel) questionsPane(io *ui.IOStreams, t *task.Task) {
	fmt.Fprintf(io.Out, "%s waiting %s\n\n", ui.StateIcon(io, t.State), task.ShortDur(m.now.Sub(ui.AskedAt(t))))
	for _, q := range t.Numbered() {
		ui.PrintQuestionAs(io, m.now, q.Q, fmt.Sprintf("%d. ", q.N), "")
		fmt.Fprintln(io.Out)
	}
	if n := len(m.notes[t.ID]); n > 0 {
		fmt.Fprintln(io.Out, io.Yellow(ui.Wrap("with your no, the agent gets "+ui.Plural(n, "comment")+" on lines of the change", io.Cols)))
	}
	fmt.Fprintln(io.Out, io.Faint(ui.Wrap("enter answers here · d shows the change · c opens its session · s stops it", io.Cols)))
}

func (m *boardModel) stepsPane(io *ui.IOStreams, t *task.Task) {
	state := fmt.Sprintf("%s running for %s", io.Cyan("▶"), task.ShortDur(m.now.Sub(runningSince(t))))
	if l := t.Lease; l != nil {
		state += fmt.Sprintf(", worker %s (pid %d)", l.Worker, l.PID)
	}
	fmt.Fprintf(io.Out, "%s\n\n%s\n", state, io.Bold("latest steps"))
	steps := m.steps[t.ID]
	steps = steps[max(0, len(steps)-max(m.height-10, 1)):] // the latest that fit
	if len(steps) == 0 {
		fmt.Fprintln(io.Out, io.Faint("none yet (bh log --follow shows every step as it comes)"))
	}
	for _, st := range steps {
		fmt.Fprintf(io.Out, "%s  %s\n", io.Faint(st.At.Local().Format("15:04:05")), ui.Flatten(st.Step))
	}
	fmt.Fprintln(io.Out, "\n"+io.Faint("l shows the whole run · s stops it"))
}
