package ending

import (
	"time"

	"github.com/bh-tracker/bh/task"
)

// Ask makes qs the task's pending questions, each with its own
// correlation id and an input.requested event, and returns their texts.
func Ask(t *task.Task, at time.Time, qs []task.Question, context string, expires *time.Time) []string {
	t.Question, t.QuestionContext = qs[0].Question, context
	t.HumanResponse, t.HumanRespondedAt = "", nil
	texts := make([]string, len(qs))
	for i, q := range qs {
		q.ID, q.Context, q.Status, q.AskedAt = t.NewQuestionID(), context, task.QuestionPending, at
		if expires != nil {
			e := *expires
			q.ExpiresAt = &e
		}
		t.Questions = append(t.Questions, q)
		t.Record(at, task.Event{Kind: task.EventInputRequested, QuestionID: q.ID, Text: q.Question, Context: context})
		texts[i] = q.Question
	}
	return texts
}

// Repend makes t wait again on its answered question qid, with a fresh
// expiry: nothing is asked anew, so nothing is notified or recorded twice.
func Repend(t *task.Task, qid string, expires *time.Time) {
	for i := range t.Questions {
		if q := &t.Questions[i]; q.ID == qid {
			q.Status, q.Answer, q.Comment, q.AnsweredAt, q.ExpiresAt = task.QuestionPending, nil, "", nil, nil
			if expires != nil {
				e := *expires
				q.ExpiresAt = &e
			}
			t.Question, t.QuestionContext = q.Question, q.Context
		}
	}
	t.HumanResponse, t.HumanRespondedAt = "", nil
}
