package cmd

import (
	"errors"
	"fmt"
	"slices"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
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
	waiting := slices.DeleteFunc(slices.Clone(tasks), func(t *task.Task) bool { return t.State != task.AwaitingInput })
	if len(waiting) == 0 {
		fmt.Fprintln(o.IO.ErrOut, "no task is waiting for your answer")
		return nil
	}
	task.SortQueue(waiting)
	in := make([]waitingTask, len(waiting))
	for i, t := range waiting {
		in[i] = waitingTask{s: s, t: t}
	}
	return answerInTurn(o, in)
}

// waitingTask is a task waiting for answers, with the store it lives in
// and, across repositories, the repository's name.
type waitingTask struct {
	s    *store.Store
	t    *task.Task
	repo string
}

// answerInTurn asks each task's questions on the terminal, in the order
// given. Each task's answers are saved as soon as they are given; an empty
// answer skips the task or question.
func answerInTurn(o *RespondOptions, ws []waitingTask) error {
	answered := []*task.Task{}
	for i, w := range ws {
		where := ""
		if w.repo != "" {
			where = o.IO.Bold(w.repo) + "  "
		}
		fmt.Fprintf(o.IO.ErrOut, "\n(%d/%d) %s%s  %s  %s\n", i+1, len(ws), where, o.IO.Cyan(w.t.ID),
			ui.PriorityText(o.IO, w.t.Priority), o.IO.Bold(w.t.Title))
		rep, err := askTask(o, w.s, w.t, w.t.OpenQuestions(), true)
		if errors.Is(err, ui.ErrAborted) {
			return keepGiven(o.base, w.s, w.t, rep, err)
		}
		if err != nil {
			return err
		}
		if len(rep.answers) == 0 {
			fmt.Fprintf(o.IO.ErrOut, "skipped %s\n", w.t.ID)
			continue
		}
		u, err := saveAnswers(o.base, w.s, w.t, rep)
		if err != nil {
			warn(o.IO, o.JSON, err) // the worker may have changed it meanwhile: go on
			continue
		}
		answered = append(answered, u)
	}
	return o.result(answered)
}
