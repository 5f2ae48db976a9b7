package cmd

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"

	"github.com/bh-tracker/bh/task"

	tea "github.com/charmbracelet/bubbletea"
)

// answerTask asks each question t waits on and saves the answers, as
// bh respond does on a terminal; a question in words is answered in one
// line here (bh respond --edit opens the editor).
func answerTask(id string) func(base, picker) error {
	return func(b base, p picker) error {
		s, err := b.Store()
		if err != nil {
			return err
		}
		t, err := s.Get(id)
		if err != nil {
			return err
		}
		if t.State != task.AwaitingInput {
			return notAwaiting(t, "")
		}
		qs, err := targets(t, "")
		if err != nil {
			return err
		}
		rep := &reply{}
		for _, q := range qs {
			var a *task.Answer
			if q.Kind() == task.FreeformQuestion {
				a, err = askWords(p, q)
			} else {
				a, err = askOne(p, q, len(qs) > 1)
			}
			if errors.Is(err, errAborted) {
				return keepGiven(b, s, t, rep, err)
			}
			if err != nil {
				return err
			}
			if a != nil {
				rep.answers = append(rep.answers, *a)
			}
		}
		if len(rep.answers) == 0 {
			return errEmpty
		}
		_, err = saveAnswers(b, s, t, rep)
		return err
	}
}

// askWords asks a question in words on one line; nil when left empty.
func askWords(p picker, q task.Question) (*task.Answer, error) {
	text, err := p.Input(questionTitle(q), q.Context)
	if err != nil || text == "" {
		return nil, err
	}
	return &task.Answer{QuestionID: q.ID, Values: []string{text}}, nil
}

// stopTask asks for a confirmation and a reason, then stops the task as
// bh stop does.
func stopTask(t *task.Task) func(base, picker) error {
	return func(b base, p picker) error {
		ok, err := p.Confirm("Stop "+t.ID+" “"+cutWords(flatten(t.Title), 50)+"”?", "it is deferred and its work parked; bh reopen brings it back", false)
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
		return stopRun(&StopOptions{base: b, ID: t.ID, Reason: why})
	}
}

// continueTask opens t's agent session with bh continue in the board's
// terminal; the board comes back when it ends.
func (m *boardModel) continueTask(t *task.Task) tea.Cmd {
	c := exec.Command(m.self, "continue", t.ID)
	c.Dir = m.s.Root
	return tea.Exec(&pausedCmd{Cmd: c}, func(err error) tea.Msg { return continued{t.ID, err} })
}

// continued is bh continue's end.
type continued struct {
	id  string
	err error
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
