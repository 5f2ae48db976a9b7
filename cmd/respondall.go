package cmd

import (
	"errors"
	"fmt"

	"github.com/bh-tracker/bh/task"
)

// respondAll walks every waiting task in priority order and asks its
// questions on the terminal. Each task's answers are saved as soon as they
// are given; an empty answer skips the task or question.
func respondAll(o *RespondOptions) error {
	switch {
	case o.ID != "":
		return usageErrorf("--all answers every waiting task: give no task id")
	case o.HasAnswer || o.decided() || o.Edit || o.Question != "" || o.Template != "":
		return usageErrorf("--all asks each question on the terminal: it takes no answer or answer flags")
	case !o.IO.IsStdinTTY:
		return withHint(usageErrorf("--all asks on a terminal, and stdin is not one"),
			"answer each task with bh respond <id> and its flags; bh list --awaiting shows them")
	}
	s, err := o.Store()
	if err != nil {
		return err
	}
	tasks, bad, err := s.List()
	if err != nil {
		return err
	}
	warnFiles(o.IO, o.JSON, bad)
	var waiting []*task.Task
	for _, t := range tasks {
		if t.State == task.AwaitingInput {
			waiting = append(waiting, t)
		}
	}
	if len(waiting) == 0 {
		fmt.Fprintln(o.IO.ErrOut, "no task is waiting for your answer")
		return nil
	}
	task.SortQueue(waiting) // waiting is our own slice, not the store's
	answered := []*task.Task{}
	for i, t := range waiting {
		fmt.Fprintf(o.IO.ErrOut, "\n(%d/%d) %s  %s  %s\n", i+1, len(waiting), o.IO.Cyan(t.ID),
			priorityText(o.IO, t.Priority), o.IO.Bold(t.Title))
		rep, err := askTask(o, s, t, t.OpenQuestions(), true)
		if errors.Is(err, errAborted) {
			return keepGiven(o.base, s, t, rep, err)
		}
		if err != nil {
			return err
		}
		if len(rep.answers) == 0 {
			fmt.Fprintf(o.IO.ErrOut, "skipped %s\n", t.ID)
			continue
		}
		u, err := saveAnswers(o.base, s, t, rep)
		if err != nil {
			warn(o.IO, o.JSON, err) // the worker may have changed it meanwhile: go on
			continue
		}
		answered = append(answered, u)
	}
	if o.JSON {
		return writeJSON(o.IO.Out, answered)
	}
	return nil
}
