package notify

import (
	"context"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
)

// answerWait bounds how long recording an answer waits for its
// input.received to be delivered: bh respond exits right after, and a slow
// webhook must not hold up the human.
const answerWait = 5 * time.Second

// Answer records a human's answers to task id, in the repository s opens,
// and tells the notifiers that listen to input.received who answered what.
// Every channel answers through it (bh respond, the board, bh inbox, bh
// serve, the phone link, bh land, bh continue), so the record and the notification are one step. The
// answer is recorded by store.Store.Answer; a notification that cannot go
// out is logged through logf and never undoes it.
func Answer(s *store.Store, id string, ans []task.Answer, by string, logf func(format string, args ...any)) (*task.Task, error) {
	if err := CheckComments(s, id, ans); err != nil {
		return nil, err
	}
	t, n, err := s.Answer(id, ans, by)
	if err != nil {
		return nil, err
	}
	nf, err := New(s.Config.Notify, logf)
	if err != nil {
		if logf != nil {
			logf("notify: %v", err)
		}
		return t, nil
	}
	if !nf.Wants(task.EventInputReceived) {
		return t, nil
	}
	web, err := config.LoadWebConfig()
	if err != nil && logf != nil {
		logf("notify: %v", err) // the notification goes without its link
	}
	nf.Send(Received(t, n, by, s.Root, web))
	ctx, cancel := context.WithTimeout(context.Background(), answerWait)
	defer cancel()
	if err := nf.Close(ctx); err != nil && logf != nil {
		logf("%v", err)
	}
	return t, nil
}

// Received is input.received for the last n answers recorded in t (by, in
// the repository at root): each question with its answer, as the history
// has them.
func Received(t *task.Task, n int, by, root string, web config.WebConfig) Event {
	e := FromTask(task.EventInputReceived, t, root, web, time.Time{})
	e.By, e.Questions = by, nil
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
