package worker

import (
	"context"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

// An agent that commits on its branch itself (git commit is banned, but a
// script can still do it), or whose tool calls were refused, does not
// land: its completion waits for a human's approval, with the reason.
func TestSuspectCompletionsAreGated(t *testing.T) {
	cases := []struct {
		name, why string
		run       func(ctx context.Context, req agent.Request) (*agent.Outcome, error)
	}{
		{"moved its branch", "moved its branch", func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
			writeFile(t, req.Dir, "sneaky.txt", "committed by the agent\n")
			gitT(t, req.Dir, "add", "sneaky.txt")
			gitT(t, req.Dir, "commit", "-q", "-m", "the agent's own commit")
			return &agent.Outcome{Result: done("done"), SessionID: req.SessionID}, nil
		}},
		{"denied tools", "tool calls were denied: Bash: go test ./...", func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
			writeFile(t, req.Dir, "code.go", "package x\n")
			return &agent.Outcome{Result: done("tests pass"), SessionID: req.SessionID,
				Denials: []string{"Bash: go test ./..."}}, nil
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newStore(t)
			tk := addTask(t, s, "Suspect")
			head := gitT(t, s.Root, "rev-parse", "HEAD")
			runWith(t, s, Options{Runner: agent.RunnerFunc(c.run), Once: true})
			got := getTask(t, s, tk.ID)
			q := pendingOf(t, got)
			if got.State != task.AwaitingInput || !q.Gate || !strings.Contains(q.Context, c.why) {
				t.Fatalf("%s: state %s, question %+v", c.name, got.State, q)
			}
			if gitT(t, s.Root, "rev-parse", "HEAD") != head {
				t.Fatal("suspect work landed without approval")
			}
		})
	}
}
