package worker

import (
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

// asked converts the result's questions for the task. A result without
// any asks its summary, so that an answer always has a question.
func asked(res agent.Result) []task.Question {
	qs := res.Questions
	if len(qs) == 0 {
		text := res.Question
		if text == "" {
			text = res.Summary
		}
		if text == "" {
			text = "The agent stopped without saying why. How should it go on?"
		}
		qs = []agent.Question{{Question: text, Type: agent.QuestionFreeform}}
	}
	out := make([]task.Question, len(qs))
	for i, q := range qs {
		tq := task.Question{Question: q.Question, Header: q.Header, Type: q.Type,
			MultiSelect: q.MultiSelect, Default: q.Default, Tool: q.Tool}
		for _, o := range q.Options {
			tq.Options = append(tq.Options, task.Option{Label: o.Label, Description: o.Description})
		}
		out[i] = tq
	}
	return out
}

// ask makes qs the task's pending questions, each with its own
// correlation id and an input.requested event, and returns their texts.
func ask(t *task.Task, at time.Time, qs []task.Question, context string, expires *time.Time) []string {
	t.Question, t.QuestionContext = qs[0].Question, context
	t.HumanResponse, t.HumanRespondedAt = "", nil
	texts := make([]string, len(qs))
	for i, q := range qs {
		q.ID, q.Context, q.Status, q.AskedAt = newQuestionID(t), context, task.QuestionPending, at
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

// repend makes t wait again on its answered question qid, with a fresh
// expiry: nothing is asked anew, so nothing is notified or recorded twice.
func repend(t *task.Task, qid string, expires *time.Time) {
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
