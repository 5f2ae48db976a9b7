package worker

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/outage"
)

// An agent that commits on its branch itself (git commit is banned, but a
// script can still do it), or whose tool calls were refused, does not
// land: its completion waits for a human's approval, with the reason.
func TestSuspectCompletionsAreGated(t *testing.T) {
	t.Parallel()
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

// A usage limit (429) holds new runs back; bh status learns until when
// from the pause the worker records, which goes once the agent is back.
func TestUsageLimitPauseIsRecorded(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := addTask(t, s, "Limited")
	var seen *outage.Pause
	calls := 0
	r := agent.RunnerFunc(func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		calls++
		if calls == 1 {
			return nil, &agent.RunError{Reason: "API Error: 429 usage limit", Outage: agent.OutageLimit, ExitCode: 1}
		}
		seen = outage.PausedNow(s, time.Now().Add(-time.Second)) // still recorded as the retry starts
		return &agent.Outcome{Result: done("ok"), SessionID: req.SessionID}, nil
	})
	runWith(t, s, Options{Runner: r, Once: true, Backoff: 300 * time.Millisecond})
	if seen == nil || !strings.Contains(seen.Reason, "usage limit") {
		t.Fatalf("pause during the backoff: %+v", seen)
	}
	if p := outage.PausedNow(s, time.Now().Add(-time.Hour)); p != nil {
		t.Errorf("the pause outlived the outage: %+v", p)
	}
	if got := getTask(t, s, tk.ID); got.State != task.Closed {
		t.Errorf("%s after the limit passed", got.State)
	}
}

// An API the agent cannot reach fails no task: the one that ran is open
// again (not failed), the others are never claimed, and bh worker --once
// stops with the reason and what to do (exit 3 in cmd).
func TestUnreachableAPIChangesNoTask(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ids := []string{addTask(t, s, "One").ID, addTask(t, s, "Two").ID, addTask(t, s, "Three").ID}
	calls := 0
	r := agent.RunnerFunc(func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		calls++
		return nil, &agent.RunError{Reason: "claude reported an error: API Error: Connection refused (ECONNREFUSED)",
			Outage: agent.OutageUnreachable, ExitCode: 1}
	})
	var evs []Event
	ctx := context.Background()
	err := Run(ctx, ctx, s, Options{Runner: r, Once: true, Report: func(e Event) { evs = append(evs, e) }})
	var pe *PreflightError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "cannot be reached") || !strings.Contains(pe.Hint(), "network") {
		t.Fatalf("worker: %v", err)
	}
	if calls != 1 {
		t.Errorf("%d runs: the worker should stop at the first", calls)
	}
	for _, id := range ids {
		got := getTask(t, s, id)
		if got.State != task.Open {
			t.Errorf("%s is %s", id, got.State)
		}
		for _, h := range got.History {
			if h.To == task.Failed {
				t.Errorf("%s failed on the way: %+v", id, h)
			}
		}
	}
	paused := false
	for _, e := range evs {
		paused = paused || e.Kind == Paused && strings.Contains(e.Summary, "ECONNREFUSED")
	}
	if !paused {
		t.Errorf("no pause names the reason: %+v", evs)
	}
}
