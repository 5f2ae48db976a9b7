package task

import (
	"fmt"
	"strings"
	"time"
)

// NotAwaitingError is an answer to a task that asks nothing.
type NotAwaitingError struct {
	ID    string
	State State
}

func (e *NotAwaitingError) Error() string {
	return fmt.Sprintf("%s is %s, not awaiting_input: it has no question to answer", e.ID, e.State)
}

// TypedQuestionsError is a reply in words to a task that waits on
// approval or choice questions, which words alone cannot answer.
type TypedQuestionsError struct {
	ID        string
	Questions []Question
}

func (e *TypedQuestionsError) Error() string {
	parts := make([]string, len(e.Questions))
	for i, q := range e.Questions {
		parts[i] = fmt.Sprintf("%s (%s)", q.ID, q.Kind())
	}
	return fmt.Sprintf("%s waits on %s, which a reply in words cannot answer", e.ID, strings.Join(parts, ", "))
}

// Respond answers every question t waits on with the same words, and opens
// t again. It is Answer for the simple case: it refuses a task that waits on
// approval or choice questions (TypedQuestionsError), which need Answer.
// Call it inside Store.Update.
func (t *Task) Respond(answer string, now time.Time, by string) error {
	if t.State != AwaitingInput {
		return &NotAwaitingError{ID: t.ID, State: t.State}
	}
	var ans []Answer
	var typed []Question
	for _, q := range t.Pending() {
		if q.Kind() != FreeformQuestion {
			typed = append(typed, q)
			continue
		}
		ans = append(ans, Answer{QuestionID: q.ID, Values: []string{answer}})
	}
	if len(typed) > 0 {
		return &TypedQuestionsError{ID: t.ID, Questions: typed}
	}
	return t.Answer(ans, now, by)
}
