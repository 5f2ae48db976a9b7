package cmd

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/bh-tracker/bh/worker/act"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

var errEmpty = errors.New("empty answer: nothing was changed")

// reply is what the human answered one task with, before it is saved.
type reply struct {
	answers []task.Answer
	draft   draft
	// byFlags: the answers came from flags, so one that does not fit its
	// question is a usage error.
	byFlags bool
	// by is who answered, in the history (bh stats tells the channels
	// apart by it): "human" unless the board answered.
	by string
}

// draft is the editor's scratch file, kept until the answer is saved so
// that a refused answer is never lost.
type draft struct{ path, rel string }

func (d draft) remove() {
	if d.path != "" {
		os.Remove(d.path)
	}
}

// saveAnswers records rep in the task under its lock and says what happened.
func saveAnswers(o base, s *store.Store, before *task.Task, rep *reply) (*task.Task, error) {
	t, err := act.Answer(s, before.ID, rep.answers, cmp.Or(rep.by, "human"), func(format string, args ...any) {
		warn(o.IO, o.JSON, fmt.Errorf(format, args...))
	})
	if err != nil {
		var ae *task.AnswerError
		if errors.As(err, &ae) && rep.byFlags && ae.AnsweredBy == "" {
			err = &usageError{err}
		}
		if rep.draft.path != "" {
			return nil, withHint(err, "your answer is kept in "+rep.draft.rel)
		}
		if errors.As(err, &ae) && ae.AnsweredBy != "" {
			return nil, withHint(err, "bh show "+before.ID+" shows the answer")
		}
		if errors.As(err, &ae) && slices.ContainsFunc(rep.answers, func(a task.Answer) bool { return len(a.Comments) > 0 }) {
			return nil, withHint(err, "bh diff "+before.ID+" shows the change")
		}
		if errors.As(err, &ae) {
			return nil, withHint(err, "bh status "+before.ID+" shows what it asks")
		}
		return nil, err
	}
	rep.draft.remove()
	sayAnswered(o, before, t, rep.answers)
	return t, nil
}

// sayAnswered tells the human what their answers did: the task open again,
// or the questions (by number) it still waits on.
func sayAnswered(o base, before, t *task.Task, answers []task.Answer) {
	waiting := t
	if t.State != task.AwaitingInput && t.State != task.Open {
		waiting, _ = t.Answerable() // late answers to some of the timed-out questions: the rest take one still
	}
	if waiting == nil || t.State == task.Open {
		fmt.Fprintf(o.IO.ErrOut, "answered %s: it is open again; %s\n", t.ID, act.Next(t))
		return
	}
	var left, answered []string
	for _, q := range waiting.Pending() {
		left = append(left, q.ID)
	}
	for _, a := range answers {
		answered = append(answered, a.QuestionID)
	}
	did := "answered " + before.Numbers(answered) + " of " + t.ID
	if t.State != task.AwaitingInput {
		fmt.Fprintf(o.IO.ErrOut, "%s; it stays %s until the rest are answered as well: %s\n", did, t.State, waiting.Numbers(left))
		return
	}
	fmt.Fprintf(o.IO.ErrOut, "%s; it still waits on %s (bh status %s shows them)\n", did, waiting.Numbers(left), t.ID)
}
