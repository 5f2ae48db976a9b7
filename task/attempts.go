package task

import (
	"fmt"
	"strconv"
)

// MaxAttempts bounds attempts: each is an agent running at once.
const MaxAttempts = 9

// CheckAttempts validates a task's number of attempts (0 or 1: one run).
func CheckAttempts(n int) error {
	if n < 0 || n > MaxAttempts {
		return fmt.Errorf("%d: want 1 to %d attempts", n, MaxAttempts)
	}
	return nil
}

// CheckAgents validates the agents that attempts take in turn.
func CheckAgents(agents []string) error {
	for _, a := range agents {
		if err := checkOneOf(a, AgentKinds); err != nil || a == "" {
			return fmt.Errorf("%q: want one of claude, codex, command", a)
		}
	}
	return nil
}

// Tried reports whether t is tried by several attempts side by side.
func (t *Task) Tried() bool { return t.Attempts > 1 && t.Attempt == 0 }

// AttemptAgent is the agent attempt k (1 is the first) of t runs: t's
// agents in turn, "" for the task's own.
func (t *Task) AttemptAgent(k int) string {
	if len(t.Agents) == 0 {
		return ""
	}
	return t.Agents[(k-1)%len(t.Agents)]
}

// AttemptTitle is attempt k's title: its number marks its questions
// wherever they are asked.
func AttemptTitle(k, n int, title string) string {
	return "attempt " + strconv.Itoa(k) + "/" + strconv.Itoa(n) + ": " + title
}
