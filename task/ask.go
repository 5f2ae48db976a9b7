package task

import (
	"crypto/rand"
	"math/big"
	"time"
)

// Ask makes qs the task's pending questions, each with its own
// correlation id and an input.requested event, and returns their texts.
func (t *Task) Ask(at time.Time, qs []Question, context string, expires *time.Time) []string {
	t.Question, t.QuestionContext = qs[0].Question, context
	t.HumanResponse, t.HumanRespondedAt = "", nil
	texts := make([]string, len(qs))
	for i, q := range qs {
		q.ID, q.Context, q.Status, q.AskedAt = t.newQuestionID(), context, QuestionPending, at
		if expires != nil {
			q.ExpiresAt = new(*expires)
		}
		t.Questions = append(t.Questions, q)
		t.Record(at, Event{Kind: EventInputRequested, QuestionID: q.ID, Text: q.Question, Context: context})
		texts[i] = q.Question
	}
	return texts
}

// Repend makes t wait again on its answered question qid, with a fresh
// expiry: nothing is asked anew, so nothing is notified or recorded twice.
func (t *Task) Repend(qid string, expires *time.Time) {
	for i := range t.Questions {
		if q := &t.Questions[i]; q.ID == qid {
			q.Status, q.Answer, q.Comment, q.AnsweredAt, q.ExpiresAt = QuestionPending, nil, "", nil, nil
			if expires != nil {
				q.ExpiresAt = new(*expires)
			}
			t.Question, t.QuestionContext = q.Question, q.Context
		}
	}
	t.HumanResponse, t.HumanRespondedAt = "", nil
}

// newQuestionID is a short correlation id, unique within the task, that
// ties a question to its answer in the history and on the command line.
func (t *Task) newQuestionID() string {
	for {
		id := []byte("q")
		for range 4 {
			n, _ := rand.Int(rand.Reader, big.NewInt(36))
			id = append(id, base36[n.Int64()])
		}
		if t.QuestionByID(string(id)) == nil {
			return string(id)
		}
	}
}
