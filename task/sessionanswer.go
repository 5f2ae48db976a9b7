package task

import (
	"fmt"
	"slices"
	"time"
)

// continuable are the states whose agent session a human may take over.
var continuable = []State{AwaitingInput, Blocked, Failed}

// Continuable refuses a task whose state has no session to take over.
func (t *Task) Continuable() error {
	if !slices.Contains(continuable, t.State) {
		return fmt.Errorf("%s is %s: only a waiting, blocked or failed task can be continued", t.ID, t.State)
	}
	return nil
}

// answerInSession records that a human took t's agent session over (bh
// continue) and said words in it: every pending question is answered by
// those words, as the human typed them (its Comment, with no decision, so
// an approval gate is neither approved nor refused by it), one
// input.received event each, and the task opens again for the worker to
// resume the session. A blocked or failed task, which asks nothing, opens
// again likewise; one that was answered or moved on meanwhile is refused.
func (t *Task) answerInSession(words string, now time.Time, by, session string) error {
	if err := t.Continuable(); err != nil {
		return err
	}
	now = now.UTC()
	if pending := t.pending(); len(pending) > 0 {
		done := make(map[int]Question, len(pending))
		for k, p := range pending {
			p.q.Answer, p.q.Comment = nil, words
			done[k] = p.q
		}
		t.recordAnswers(pending, done, now, by)
		t.HumanResponse, t.HumanRespondedAt = roundText(t, pending, done), &now
	}
	return t.SetState(Open, now, by, "answered in the agent's session "+session+
		" (bh continue); the worker resumes it for its result")
}
