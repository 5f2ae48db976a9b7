package task

import (
	"fmt"
	"slices"
	"strings"
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
	var kinds []string
	for _, q := range e.Questions {
		if !slices.Contains(kinds, q.Kind()) {
			kinds = append(kinds, q.Kind())
		}
	}
	return fmt.Sprintf("%s waits on %s questions, which a reply in words cannot answer", e.ID, strings.Join(kinds, " and "))
}
