package config

import (
	"fmt"
	"slices"
	"time"

	"github.com/bh-tracker/bh/task"
)

// DefaultCheckRounds is how many failing rounds of checks go back to the
// agent before a human is asked, unless checkRounds says otherwise.
const DefaultCheckRounds = 3

// MaxCheckRounds bounds checkRounds: a guard against a typo sending an
// agent round a failing test a thousand times.
const MaxCheckRounds = 20

// ChecksFor is what must pass before t's work lands: the config's checks,
// then its type's (agent.types.<type>.checks), then the task's own. They
// add up, so a task can never weaken the repository's checks; a command
// named twice runs once.
func (c Config) ChecksFor(t *task.Task) []string {
	var out []string
	add := func(cmds []string) {
		for _, cmd := range cmds {
			if !slices.Contains(out, cmd) {
				out = append(out, cmd)
			}
		}
	}
	add(c.Checks)
	add(c.Agent.Types[string(t.Type)].Checks)
	if t.AgentSettings != nil {
		add(t.AgentSettings.Checks)
	}
	add(t.Checks)
	return out
}

// Rounds is checkRounds, or its default.
func (c Config) Rounds() int {
	if c.CheckRounds > 0 {
		return c.CheckRounds
	}
	return DefaultCheckRounds
}

func checkRounds(n int) error {
	if n < 0 || n > MaxCheckRounds {
		return fmt.Errorf("%d: want 1 to %d", n, MaxCheckRounds)
	}
	return nil
}

// DefaultCheckTimeout bounds one check command unless checkTimeout says
// otherwise: a test suite, not a task.
const DefaultCheckTimeout = 10 * time.Minute

// CheckLimit is checkTimeout, or its default.
func (c Config) CheckLimit() time.Duration { return c.CheckTimeout.Or(DefaultCheckTimeout) }
