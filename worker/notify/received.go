package notify

import (
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// Received is input.received for the last n answers recorded in t (by, in
// the repository at root): each question with its answer, as the history
// has them.
func Received(t *task.Task, n int, by, root string, web config.WebConfig) Event {
	e := FromTask(task.EventInputReceived, t, root, web, time.Time{})
	e.By, e.Channel, e.Questions = by, task.Channel(by), nil
	for i := len(t.History) - 1; i >= 0 && n > 0; i-- {
		h := t.History[i]
		if h.Kind != task.EventInputReceived {
			continue
		}
		n--
		e.At = h.At
		q := Question{ID: h.QuestionID, Text: t.Question, Type: task.FreeformQuestion, Answer: h.Text}
		for _, tq := range t.Questions {
			if tq.ID == h.QuestionID && h.QuestionID != "" {
				q.Text, q.Type = tq.Question, tq.Kind()
			}
		}
		e.Questions = append([]Question{q}, e.Questions...)
	}
	e.first()
	return e
}
