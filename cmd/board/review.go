package board

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/cmd/undo"
	"github.com/bh-tracker/bh/task"

	tea "github.com/charmbracelet/bubbletea"
)

// Review takes a task's answers, given on the board's picker, and saves
// them with save (as bh respond saves them), at once or later; it may add
// to them (comments on lines) first.
type Review func(t *task.Task, ans []task.Answer, save func(*ui.IOStreams) error) error

// review is what the board does with a task's answers, on the dialog's
// goroutine: the comments on lines go with a gate's no; a gate approved
// without its change opened (d) is asked about once; an answer that lands
// work is held for undo.Window (u takes it back), as the web holds it.
func (m *boardModel) review(io *ui.IOStreams, p ui.Picker, opened bool, notes []task.LineComment) Review {
	return func(t *task.Task, ans []task.Answer, save func(*ui.IOStreams) error) error {
		withNotes(t, ans, notes)
		step := undo.Decide(m.s, t.ID, ans, m.b.Now(), "board", opened, false)
		switch step {
		case undo.AskFirst:
			ok, err := p.Confirm("You have not opened the change. Approve anyway?", "d on the board shows it", false)
			if err != nil || !ok {
				return errors.New("not approved: d shows the change, then enter answers again")
			}
			step = undo.Decide(m.s, t.ID, ans, m.b.Now(), "board", opened, true)
		case undo.AskWhy:
			ok, err := p.Confirm("Reject with no reason? The agent runs again without knowing what to change.",
				"a reason, or a comment on a line of the change (d, then c), tells it", false)
			if err != nil || !ok {
				return errors.New("not rejected: enter answers again, with a reason")
			}
			step = undo.Decide(m.s, t.ID, ans, m.b.Now(), "board", opened, true)
		}
		if step != undo.HoldBack {
			return save(io)
		}
		m.holds.Hold(t.ID, func() {
			var out bytes.Buffer
			io := *m.b.IO
			io.Out, io.ErrOut = &out, &out
			err := save(&io)
			select { // read by waitRecorded; a board that has quit reads it no more
			case m.recorded <- boardDone{strings.TrimSpace(out.String()), err}:
			default:
			}
		})
		fmt.Fprintf(io.ErrOut, "approved %s: recorded in %d s, unless you undo it (u)", t.ID, int(undo.Window.Seconds()))
		return nil
	}
}

// withNotes puts the comments on lines on the answer that says no to a
// gate of t, the one bh respond --no --comment puts them on.
func withNotes(t *task.Task, ans []task.Answer, notes []task.LineComment) {
	for i, a := range ans {
		for _, q := range t.OpenQuestions() {
			if q.Gate && q.ID == a.QuestionID && len(a.Values) == 1 && a.Values[0] == "no" {
				ans[i].Comments = notes
				return
			}
		}
	}
}

// boardRecorded is a held answer recorded at its window's end.
type boardRecorded boardDone

// waitRecorded is a tea.Cmd: it returns when a held answer is recorded.
// The board runs it again after each, so that one is pending.
func (m *boardModel) waitRecorded() tea.Msg { return boardRecorded(<-m.recorded) }

// undoHeld takes back the answer held last: nothing is recorded, and the
// task waits for an answer again.
func (m *boardModel) undoHeld() {
	id := m.heldID
	m.heldID = ""
	if id == "" || !m.holds.Drop(id) {
		m.say("nothing to undo: no answer waits to be recorded", true)
		return
	}
	m.say("undone: nothing was recorded or landed; "+id+" waits for your answer again", false)
}

// heldLeft is how long the answer held last waits before it is recorded,
// in whole seconds; 0 when none waits.
func (m *boardModel) heldLeft() int {
	until := m.holds.Until(m.heldID)
	if m.heldID == "" || until.IsZero() {
		return 0
	}
	return max(int(math.Ceil(until.Sub(m.now).Seconds())), 1)
}
