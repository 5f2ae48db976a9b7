package worker

import (
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
)

// Answer is a human's answer to one pending question. An empty QuestionID
// means the only pending question.
type Answer struct {
	QuestionID string
	Values     []string // one value, or several for a multi-select choice
}

// MissingAnswersError is a response that leaves questions unanswered.
type MissingAnswersError struct {
	ID      string
	Pending []task.Question
}

func (e *MissingAnswersError) Error() string {
	ids := make([]string, len(e.Pending))
	for i, q := range e.Pending {
		ids[i] = q.ID
	}
	return fmt.Sprintf("%s waits on %d questions; answer each of %s", e.ID, len(e.Pending), strings.Join(ids, ", "))
}

// Pending lists the questions a task still waits on.
func Pending(t *task.Task) []task.Question {
	var out []task.Question
	for _, q := range t.Questions {
		if q.Status == task.QuestionPending {
			out = append(out, q)
		}
	}
	return out
}

// Respond records a human's answers to a waiting (or blocked) task and
// moves it back to open, so a worker resumes the agent's session with the
// answers. It is what `bh respond` does.
func Respond(s *task.Store, id string, answers []Answer, by string) (*task.Task, error) {
	if by == "" {
		by = "human"
	}
	t, err := s.Update(id, func(t *task.Task) error {
		if t.State != task.AwaitingInput && t.State != task.Blocked {
			return fmt.Errorf("%s is %s, not waiting for input", t.ID, t.State)
		}
		at := now(s)
		if err := answer(t, answers, by, at); err != nil {
			return err
		}
		return t.SetState(task.Open, at, by, "answered")
	})
	if err != nil {
		return nil, fmt.Errorf("respond %s: %w", id, err)
	}
	return t, nil
}

// answer matches answers to pending questions and records each.
func answer(t *task.Task, answers []Answer, by string, at time.Time) error {
	pending := Pending(t)
	if len(pending) == 0 {
		// A task with only the flat question (written by hand or by an
		// older bh) takes one plain answer.
		if len(answers) != 1 || answers[0].QuestionID != "" || len(answers[0].Values) == 0 {
			return fmt.Errorf("%s has no pending questions: give one answer", t.ID)
		}
		text := strings.Join(answers[0].Values, ", ")
		t.HumanResponse, t.HumanRespondedAt = text, &at
		t.Record(at, task.Event{Kind: task.EventInputReceived, By: by, Text: text})
		return nil
	}
	if len(answers) == 1 && answers[0].QuestionID == "" && len(pending) == 1 {
		answers[0].QuestionID = pending[0].ID
	}
	byID := make(map[string][]string, len(answers))
	for _, a := range answers {
		if !hasQuestion(pending, a.QuestionID) {
			return fmt.Errorf("%s has no pending question %q", t.ID, a.QuestionID)
		}
		if len(a.Values) == 0 || strings.TrimSpace(strings.Join(a.Values, "")) == "" {
			return fmt.Errorf("empty answer to %s", a.QuestionID)
		}
		byID[a.QuestionID] = a.Values
	}
	var missing []task.Question
	for _, q := range pending {
		if byID[q.ID] == nil {
			missing = append(missing, q)
		}
	}
	if len(missing) > 0 {
		return &MissingAnswersError{ID: t.ID, Pending: missing}
	}
	var texts []string
	for i := range t.Questions {
		q := &t.Questions[i]
		v, ok := byID[q.ID]
		if !ok || q.Status != task.QuestionPending {
			continue
		}
		q.Status, q.Answer, q.AnsweredAt = task.QuestionAnswered, v, &at
		text := strings.Join(v, ", ")
		texts = append(texts, text)
		t.Record(at, task.Event{Kind: task.EventInputReceived, By: by, QuestionID: q.ID, Text: text})
	}
	t.HumanResponse, t.HumanRespondedAt = strings.Join(texts, "\n"), &at
	return nil
}

func hasQuestion(qs []task.Question, id string) bool {
	for _, q := range qs {
		if q.ID == id {
			return true
		}
	}
	return false
}
