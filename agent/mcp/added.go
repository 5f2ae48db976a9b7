package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/agent/ask"
	"github.com/bh-tracker/bh/task"
)

// Added is a follow-up task an agent recorded through add_task. bh mcp
// cannot write the task store from inside the sandbox: the worker creates
// it, linked to the run's task, when the run ends.
type Added struct {
	Title       string        `json:"title"`
	Description string        `json:"description,omitempty"`
	Priority    task.Priority `json:"priority,omitempty"`
}

// MaxAdded caps the tasks one run adds: more is no follow-up work but an
// agent flooding the tracker.
const MaxAdded = 20

const addedFile = "added.jsonl"

// recordAdded appends a to the outbox.
func recordAdded(outbox string, a Added) error {
	b, err := json.Marshal(a)
	if err != nil {
		return err
	}
	if len(b) > MaxLineBytes {
		return fmt.Errorf("task too large: %d bytes, limit %d; put the details in a file of the worktree", len(b), MaxLineBytes)
	}
	return appendLines(outbox, addedFile, [][]byte{append(b, '\n')})
}

// TakeAdded returns the tasks added during a run, from its outbox, and
// forgets them; read as hostile input, as TakeAsked reads. Titles and
// descriptions are capped (ask.CapText); past MaxAdded, the outbox is
// refused.
func TakeAdded(outbox string) ([]Added, error) {
	var out []Added
	err := takeLines(outbox, addedFile, func(line []byte) error {
		var a Added
		if json.Unmarshal(line, &a) != nil || strings.TrimSpace(a.Title) == "" {
			return errors.New("no task")
		}
		if a.Priority != "" {
			p, err := task.ParsePriority(string(a.Priority))
			if err != nil {
				return err
			}
			a.Priority = p
		}
		if len(out) == MaxAdded {
			return fmt.Errorf("more than %d tasks added", MaxAdded)
		}
		a.Title, a.Description = ask.CapText(strings.TrimSpace(a.Title)), ask.CapText(a.Description)
		out = append(out, a)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
