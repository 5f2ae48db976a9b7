// Package mcp is bh's MCP server (bh mcp), which the worker hands to the
// agent for the length of a run: its permission prompts (Claude Code's
// AskUserQuestion among them) and its ask_human calls become the task's
// typed questions, and it can read the task store and add tasks.
//
// bh mcp runs inside the agent's sandbox, where nothing of bh's own state
// is writable: the questions asked and the tasks added during a run go to
// the run's outbox ($BH_OUTBOX, the one folder of bh's the sandbox lets
// the agent write), and the worker, outside, takes them when the run ends
// (TakeAsked, TakeAdded), reading them as it would anything the agent
// wrote.
package mcp

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/bh-tracker/bh/agent/ask"
)

// MaxQuestionBytes bounds one question as recorded (its JSON line): the
// reader takes no longer line, so a longer question is refused to the
// agent when it asks, never acknowledged and then dropped.
const MaxQuestionBytes = MaxLineBytes

// tooLarge is the tool error a question over the limit gets: the agent
// can act on it by asking again, shorter.
func tooLarge(n int) error {
	return fmt.Errorf("question too large: %d bytes, limit %d; it was not put to the human. "+
		"Shorten it and ask again: a short question, a few options, and the details in a file "+
		"of the worktree that the question names", n, MaxQuestionBytes)
}

const askedFile = "asked.jsonl"

// record appends questions the agent asked during its run to the outbox,
// all of them or, when one is too large, none.
func record(outbox string, qs ...ask.Question) error {
	lines := make([][]byte, 0, len(qs))
	for _, q := range qs {
		b, err := json.Marshal(q)
		if err != nil {
			return fmt.Errorf("record the question: %w", err)
		}
		if len(b) > MaxQuestionBytes {
			return tooLarge(len(b))
		}
		lines = append(lines, append(b, '\n'))
	}
	if err := appendLines(outbox, askedFile, lines); err != nil {
		return fmt.Errorf("record the question: %w", err)
	}
	return nil
}

// TakeAsked returns the questions asked during a run, from its outbox,
// and forgets them. The outbox is the agent's to write, so it is read as
// hostile input (see takeLines and OutboxError). A question asked again
// in the run is one question: the same permission request twice (the
// same denied command), whose answers could only agree.
func TakeAsked(outbox string) ([]ask.Question, error) {
	var qs []ask.Question
	seen := map[string]bool{}
	err := takeLines(outbox, askedFile, func(line []byte) error {
		var q ask.Question
		if json.Unmarshal(line, &q) != nil || q.Question == "" {
			return errors.New("no question")
		}
		if !seen[string(line)] {
			seen[string(line)] = true
			q.Question = ask.CapText(q.Question)
			qs = append(qs, q)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return qs, nil
}
