package board

import (
	"bytes"
	"strings"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
)

// boardDialog runs an exchange with the human (answering a task's
// questions, confirming a stop) inside the board. The exchange is plain
// code that asks through a picker, the same code as bh respond's; it runs
// on a goroutine of its own, and each question it asks comes to the board
// as one huh field to show in the pane until the human answers it.
type boardDialog struct {
	t    *task.Task // the task it is about
	reqs chan boardField
	done chan boardDone
	form *huh.Form  // the field on screen, if any
	cur  boardField // ... and whom to tell when it is answered

	scroll  int    // the first line of cur's text shown (pgup/pgdn)
	pending []rune // keys typed before the next field came
	after   func() // what the board does once the exchange has done what it asked
	answers bool   // it answers the task: once it has, the pane follows the cursor on
}

// boardField is the exchange asking one question.
type boardField struct {
	field huh.Field
	title string // the question and its description, shown above
	desc  string // the field (boardPicker)
	reply chan error
	// keys pick a value at once (an approval's y, n, s), through set.
	keys map[string]string
	set  func(value string)
}

// boardDone is the exchange's end: what it did, in bh's words, or why not.
type boardDone struct {
	text string
	err  error
}

// startDialog starts run on its own goroutine. run asks through p, and
// writes what it did to io's stderr, as a command would.
func (m *boardModel) startDialog(t *task.Task, run func(io *ui.IOStreams, p ui.Picker) error) tea.Cmd {
	d := &boardDialog{t: t, reqs: make(chan boardField), done: make(chan boardDone, 1)}
	var out bytes.Buffer
	io := *m.b.IO
	io.Out, io.ErrOut = &out, &out
	go func() {
		err := run(&io, boardPicker{d})
		d.done <- boardDone{strings.TrimSpace(out.String()), err}
	}()
	m.dlg = d
	return d.next
}

// next waits for the exchange's next question, or its end.
func (d *boardDialog) next() tea.Msg {
	select {
	case r := <-d.reqs:
		return r
	case res := <-d.done:
		return res
	}
}

// show puts the question asked on screen.
// Keys typed ahead of it go to it now.
func (m *boardModel) show(r boardField) tea.Cmd {
	d := m.dlg
	d.cur, d.scroll = r, 0
	d.form = huh.NewForm(huh.NewGroup(r.field)).WithShowHelp(true).
		WithWidth(m.paneWidth()).WithTheme(boardTheme(m.b.IO))
	init := d.form.Init()
	ahead := d.pending
	d.pending = nil
	return tea.Batch(init, m.runes(ahead, false))
}

// updateForm passes msg to the field on screen, and the human's answer,
// once given, to the exchange.
func (m *boardModel) updateForm(msg tea.Msg) tea.Cmd {
	d := m.dlg
	if k, ok := msg.(tea.KeyMsg); ok {
		if cmd, kept := m.formKey(k.String()); kept {
			return cmd
		}
	}
	f, cmd := d.form.Update(msg)
	d.form = f.(*huh.Form)
	switch d.form.State {
	case huh.StateCompleted:
		return d.answer(nil)
	case huh.StateAborted:
		return d.answer(ui.ErrAborted)
	}
	return cmd
}

// formKey acts on the keys the board keeps for itself while a field is
// on screen: esc leaves, pgup and pgdown scroll the question's words, and
// a key of the field's own (an approval's y, n, s) picks its value.
func (m *boardModel) formKey(k string) (cmd tea.Cmd, kept bool) {
	d := m.dlg
	switch {
	case k == "esc" || k == "ctrl+c":
		return d.answer(ui.ErrAborted), true
	case k == "pgup" || k == "pgdown":
		d.scroll += map[string]int{"pgup": -1, "pgdown": 1}[k] * max(m.height/2, 1)
		return nil, true // the pane keeps the scroll within the text
	case d.cur.keys[k] != "":
		d.cur.set(d.cur.keys[k])
		return d.answer(nil), true
	}
	return nil, false
}

func (d *boardDialog) answer(err error) tea.Cmd {
	d.form = nil
	d.cur.reply <- err
	return d.next
}

// finish shows how the exchange ended and reads the tasks again.
func (m *boardModel) finish(res boardDone) {
	d := m.dlg
	m.dlg = nil
	switch {
	case res.err != nil:
		text := res.err.Error()
		if h := m.b.Hint(res.err); h != "" {
			text += " (" + h + ")"
		}
		m.say(text, true)
	default:
		m.say(res.text, false)
	}
	if res.err == nil && d != nil && d.answers {
		m.text = nil // not the answered task's change: the pane follows the cursor to the next task
	}
	m.reload()
	if res.err == nil && d != nil && d.after != nil {
		d.after()
	}
}

// boardTheme is huh's look, without colour where bh has none.
func boardTheme(io *ui.IOStreams) *huh.Theme {
	if io.ColorEnabled() {
		return huh.ThemeCharm()
	}
	return huh.ThemeBase()
}
