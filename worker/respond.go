package worker

import (
	"fmt"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/notify"
)

// Respond records a human's answers to a task awaiting input: what `bh
// respond` does, and what the demo does in its place. The checks and the
// bookkeeping are task.Task.Answer's, the input.received notification
// notify.Answer's; once no question is left pending the task is open again
// and an idle worker resumes the agent's session with the answers at once.
func Respond(s *store.Store, id string, answers []task.Answer, by string) (*task.Task, error) {
	if by == "" {
		by = "human"
	}
	t, err := notify.Answer(s, id, answers, by, nil)
	if err != nil {
		return nil, fmt.Errorf("respond: %w", err)
	}
	return t, nil
}
