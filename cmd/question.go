package cmd

import (
	"time"

	"github.com/bh-tracker/bh/task"
)

// asked is one question a task is waiting on.
type asked struct {
	ID, Text, Context string
	Options           []task.Option
}

// openQuestions are what a task waits for: its pending typed questions, or
// else its flat question.
func openQuestions(t *task.Task) []asked {
	var out []asked
	for _, q := range t.Questions {
		if q.Status == task.QuestionPending {
			out = append(out, asked{ID: q.ID, Text: q.Question, Context: q.Context, Options: q.Options})
		}
	}
	if len(out) == 0 && (t.Question != "" || t.State == task.AwaitingInput) {
		text := t.Question
		if text == "" {
			text = "(the agent asked no question)"
		}
		out = append(out, asked{Text: text, Context: t.QuestionContext})
	}
	return out
}

// askedAt is when the current question was asked: its input.requested
// event, or failing that the last update.
func askedAt(t *task.Task) time.Time {
	if e, ok := t.LastAsked(); ok {
		return e.At
	}
	return t.UpdatedAt
}
