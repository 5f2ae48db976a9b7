package board

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"

	"github.com/bh-tracker/bh/worker/act"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/plan"

	tea "github.com/charmbracelet/bubbletea"
)

// answerTask answers the questions of t through the board's picker, as bh
// respond does; the board's review saves the answers. The cursor, and the
// pane with it, move on once they are.
func (m *boardModel) answerTask(t *task.Task) tea.Cmd {
	opened, notes, next := m.opened[t.ID], m.notes[t.ID], m.waitingAfter(t.ID)
	cmd := m.startDialog(t, func(io *ui.IOStreams, p ui.Picker) error {
		return m.b.Answer(io, p, t.ID, m.review(io, p, opened, notes))
	})
	m.dlg.after, m.dlg.answers = func() { m.answered(t.ID, next) }, true
	return cmd
}

// stopTask asks for a confirmation and a reason, then stops the task as
// bh stop does.
func (m *boardModel) stopTask(t *task.Task) func(*ui.IOStreams, ui.Picker) error {
	return func(io *ui.IOStreams, p ui.Picker) error {
		ok, err := p.Confirm("Stop "+t.ID+" “"+ui.CutWords(ui.Flatten(t.Title), 50)+"”?", "it is deferred and its work parked; bh reopen brings it back", false)
		if err != nil || !ok {
			return errors.New("not stopped")
		}
		why, err := p.Input("Why? (kept in its history)", "enter leaves: stopped from bh board")
		if err != nil {
			return errors.New("not stopped")
		}
		if why == "" {
			why = "stopped from bh board"
		}
		return m.b.Stop(io, t.ID, why)
	}
}

// resume ends the usage limit's (or the day's budget's) pause, as bh
// worker --resume does.
func (m *boardModel) resume() {
	if m.held == "" {
		m.say("no usage limit holds the queue back", true)
		return
	}
	if err := act.Resume(m.s); err != nil {
		m.say("resume: "+err.Error(), true)
		return
	}
	m.held = ""
	m.say("the usage limit's pause is over: the worker starts runs again", false)
}

// continueTask opens t's agent session with bh continue in the board's
// terminal; the board comes back when it ends.
func (m *boardModel) continueTask(t *task.Task) tea.Cmd {
	c := exec.Command(m.b.Self, "continue", t.ID)
	c.Dir = m.s.Root
	return tea.Exec(&pausedCmd{Cmd: c}, func(err error) tea.Msg { return continued{"continue", t.ID, err} })
}

// editPlan opens the plan t waits on in the editor, with bh respond
// --edit in the board's terminal: saved, the plan is approved as edited.
func (m *boardModel) editPlan(t *task.Task) tea.Cmd {
	if !waitsOnPlan(t) {
		m.say(t.ID+" waits on no plan: e edits a planning run's plan", true)
		return nil
	}
	c := exec.Command(m.b.Self, "respond", t.ID, "--edit")
	c.Dir = m.s.Root
	return tea.Exec(&pausedCmd{Cmd: c}, func(err error) tea.Msg { return continued{"respond", t.ID, err} })
}

// waitsOnPlan reports whether t waits on the approval of its plan.
func waitsOnPlan(t *task.Task) bool {
	q := plan.Gate(t)
	return t.State == task.AwaitingInput && q != nil && q.Status == task.QuestionPending
}

// continued is the end of the bh command (verb) the board ran in its
// terminal: bh continue, or bh respond --edit.
type continued struct {
	verb, id string
	err      error
}

// pausedCmd runs a command in the terminal; when it fails, it waits for
// enter before the board comes back, so that its error can be read.
type pausedCmd struct{ *exec.Cmd }

func (c *pausedCmd) SetStdin(r io.Reader)  { c.Stdin = r }
func (c *pausedCmd) SetStdout(w io.Writer) { c.Stdout = w }
func (c *pausedCmd) SetStderr(w io.Writer) { c.Stderr = w }

func (c *pausedCmd) Run() error {
	err := c.Cmd.Run()
	if err != nil {
		fmt.Fprint(c.Stderr, "\npress enter to go back to the board ")
		bufio.NewReader(c.Stdin).ReadString('\n')
	}
	return err
}
