package board

import (
	"github.com/bh-tracker/bh/task"

	tea "github.com/charmbracelet/bubbletea"
)

func (m *boardModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case boardChanged:
		m.reload()
		return m, m.watch.wait
	case boardTick:
		m.now = m.b.Now()
		return m, m.watch.wait
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case boardField:
		return m, m.show(msg)
	case boardDone:
		m.finish(msg)
		return m, nil
	case boardRecorded:
		if m.say(msg.text, false); msg.err != nil {
			m.say("the answer held was not recorded: "+msg.err.Error(), true)
		}
		m.reload()
		return m, m.waitRecorded
	case continued:
		switch {
		case msg.err != nil:
			m.say("bh "+msg.verb+" "+msg.id+": "+msg.err.Error(), true)
		case msg.verb == "respond":
			m.say("approved the plan of "+msg.id+" as you left it: the worker resumes its session to carry it out", false)
		default:
			m.say("left the session of "+msg.id+": it is open again, and the worker resumes it", false)
		}
		m.reload()
		return m, nil
	case tea.KeyMsg:
		if cmd, ours := m.keyMsg(msg); ours {
			return m, cmd
		}
	}
	if m.dlg != nil && m.dlg.form != nil {
		return m, m.updateForm(msg)
	}
	return m, nil
}

// keyMsg acts on a key pressed, unless it is for the field on screen.
func (m *boardModel) keyMsg(msg tea.KeyMsg) (cmd tea.Cmd, ours bool) {
	switch {
	case msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste:
		return m.runes(msg.Runes, msg.Alt), true
	case m.dlg != nil && m.dlg.form == nil && msg.Type == tea.KeyRunes: // typed before the field came: for it
		m.dlg.pending = append(m.dlg.pending, msg.Runes...)
		return nil, true
	case m.dlg != nil:
		return nil, false
	case m.text != nil:
		return m.textKey(msg.String()), true
	}
	return m.key(msg.String()), true
}

// runes handles each of several keys that came in one message (typed
// faster than the board reads them, or a held key), in order, as if each
// had come alone. Keys that follow one opening a dialog wait for its field.
func (m *boardModel) runes(rs []rune, alt bool) tea.Cmd {
	var cmds []tea.Cmd
	for i, r := range rs {
		if m.dlg != nil && m.dlg.form == nil {
			m.dlg.pending = append(m.dlg.pending, rs[i:]...)
			break
		}
		_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: alt})
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// key acts on a key pressed on the list.
func (m *boardModel) key(k string) tea.Cmd {
	switch k {
	case "q", "ctrl+c":
		return tea.Quit
	case "up", "k":
		m.move(-1)
	case "down", "j":
		m.move(1)
	case "home", "g":
		m.move(-len(m.rows))
	case "end", "G":
		m.move(len(m.rows))
	case "r":
		m.resume()
	case "u":
		m.undoHeld()
	case "e":
		if row, ok := m.current(); ok {
			return m.editPlan(row.t)
		}
	case "enter", "s", "c", "d", "l":
		if row, ok := m.current(); ok {
			return m.act(k, row.t)
		}
	}
	return nil
}

// act acts on a key that does something to the task t under the cursor.
func (m *boardModel) act(k string, t *task.Task) tea.Cmd {
	switch k {
	case "enter":
		if t.State == task.AwaitingInput {
			return m.answerTask(t)
		}
		m.say(t.ID+" asks nothing: enter answers a task waiting on you", true)
	case "s":
		if t.Stoppable() {
			return m.startDialog(t, m.stopTask(t))
		}
		m.say(t.ID+" is "+string(t.State)+": only a waiting or running task can be stopped", true)
	case "c":
		if err := t.Continuable(); err != nil {
			m.say(err.Error(), true)
			return nil
		}
		return m.continueTask(t)
	case "d":
		m.openChange(t)
	case "l":
		m.openRun(t)
	}
	return nil
}
