package worker

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// The real Claude Code CLI against an API that is overloaded once (529):
// the task goes back to open, not failed, the worker backs off, and the
// next try completes it.
func TestClaudeOverloadBacksOffAndRetries(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	calls := 0
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		switch {
		case n == 1:
			return fakeapi.Fail(529, "overloaded_error", "Overloaded")
		case len(req.ToolResults()) == 0:
			return fakeapi.Reply(fakeapi.Write("done.txt", "done\n"))
		}
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "wrote done.txt"}))
	})
	s := newStore(t)
	s.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), Timeout: realTimeout}
	tk := addTask(t, s, "Survive an overload")
	evs := runWith(t, s, Options{Env: fakeapi.Env(t, srv), Once: true, Backoff: 200 * time.Millisecond})
	got := getTask(t, s, tk.ID)
	if got.State != task.Closed {
		t.Fatalf("%s: %s", got.State, got.Summary)
	}
	var paused, note bool
	for _, e := range evs {
		paused = paused || e.Kind == Paused && strings.Contains(e.Summary, "overloaded") && e.Elapsed == 200*time.Millisecond
	}
	for _, h := range got.History {
		note = note || h.Kind == task.EventState && h.To == task.Open && strings.Contains(h.Text, "not the task's fault")
		if h.Kind == task.EventState && h.To == task.Failed {
			t.Errorf("the task failed on the way: %+v", h)
		}
	}
	if !paused || !note {
		t.Errorf("paused event %v, history note %v", paused, note)
	}
}

// An API that refuses the key (401) fails no task: the one that ran is
// open again, the other is never claimed, and the worker stops with the
// reason.
func TestClaudeAuthFailureStopsTheWorker(t *testing.T) {
	t.Parallel()
	srv := fakeapi.New(t, func(*fakeapi.Request) fakeapi.Turn {
		return fakeapi.Fail(401, "authentication_error", "invalid x-api-key")
	})
	s := newStore(t)
	s.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), Timeout: realTimeout}
	a, b := addTask(t, s, "First"), addTask(t, s, "Second")
	// claude's own retries left on: it would retry a 401 for minutes, but
	// its stream names the failure and bh stops it at the first retry.
	var env []string
	for _, kv := range fakeapi.Env(t, srv) {
		if !strings.HasPrefix(kv, "CLAUDE_CODE_MAX_RETRIES=") {
			env = append(env, kv)
		}
	}
	ctx := context.Background()
	err := Run(ctx, ctx, s, Options{Env: env, Once: true})
	var pe *PreflightError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "refuses its credentials") ||
		!strings.Contains(err.Error(), "rather than retrying") || pe.Hint() == "" {
		t.Fatalf("worker: %v", err)
	}
	for _, id := range []string{a.ID, b.ID} {
		if st := getTask(t, s, id).State; st != task.Open {
			t.Errorf("%s is %s, want open", id, st)
		}
	}
	if n := len(srv.Requests()); n < 1 || n > 3 {
		t.Errorf("%d requests: bh should stop claude at its first retries, and the second task should not run", n)
	}
}

// withEnv is env with each NAME=value of set in place of its own.
func withEnv(env []string, set ...string) []string {
	out := slices.Clone(env)
	for _, kv := range set {
		name, _, _ := strings.Cut(kv, "=")
		out = slices.DeleteFunc(out, func(e string) bool { return strings.HasPrefix(e, name+"=") })
		out = append(out, kv)
	}
	return out
}

// closedPort is an address on which nothing listens: a connection to it
// is refused.
func closedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// The real Claude Code CLI with its API refusing connections, and with no
// credentials at all: no task changes state (each is open, none failed on
// the way), and bh worker --once stops with the reason (a PreflightError:
// exit 3), after the first run.
func TestClaudeOutageChangesNoTask(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, set, want string
	}{
		{"refused", "ANTHROPIC_BASE_URL=http://" + closedPort(t), "cannot be reached"},
		{"not logged in", "ANTHROPIC_API_KEY=", "Not logged in"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := fakeapi.New(t, func(*fakeapi.Request) fakeapi.Turn {
				return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "not offline"}))
			})
			s := newStore(t)
			s.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), Timeout: realTimeout}
			a, b := addTask(t, s, "First"), addTask(t, s, "Second")
			var evs []Event
			var mu sync.Mutex
			report := func(e Event) { mu.Lock(); evs = append(evs, e); mu.Unlock() }
			ctx := context.Background()
			err := Run(ctx, ctx, s, Options{Env: withEnv(fakeapi.Env(t, srv), c.set), Once: true, Report: report})
			var pe *PreflightError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) || pe.Hint() == "" {
				t.Fatalf("worker: %v", err)
			}
			for _, id := range []string{a.ID, b.ID} {
				got := getTask(t, s, id)
				if got.State != task.Open {
					t.Errorf("%s is %s, want open", id, got.State)
				}
				for _, h := range got.History {
					if h.Kind == task.EventState && h.To == task.Failed {
						t.Errorf("%s failed on the way: %+v", id, h)
					}
				}
			}
			if n := len(srv.Requests()); n != 0 {
				t.Errorf("%d requests reached the API", n)
			}
			paused := false
			for _, e := range evs {
				paused = paused || e.Kind == Paused && strings.Contains(e.Summary, c.want)
			}
			if !paused {
				t.Errorf("no pause event names %q: %+v", c.want, evs)
			}
		})
	}
}

// A command agent whose output agent.outage: matches (a service out for a
// while, not unreachable) fails no task: the worker backs off, and the
// queue goes on once the service is back, neither task failed on the way.
func TestCommandAgentOutagePausesTheQueue(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Config.Sandbox = config.SandboxConfig{Mode: task.SandboxOff}
	down := filepath.Join(t.TempDir(), "down")
	if err := os.WriteFile(down, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// The first run finds the service down (and brings it back).
	script := `if [ -e "` + down + `" ]; then rm "` + down + `"; echo 'HTTP 503 from the model service'; exit 1; fi
echo "$BH_TASK_ID" > "$BH_TASK_ID.txt"
echo '{"status":"completed","summary":"done"}'`
	s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c", script}, Outage: `HTTP 50\d`}
	a, b := addTask(t, s, "First"), addTask(t, s, "Second")
	evs := runWith(t, s, Options{Env: []string{"HOME=" + t.TempDir()}, Backoff: 50 * time.Millisecond})
	paused := false
	for _, e := range evs {
		paused = paused || e.Kind == Paused && strings.Contains(e.Summary, "HTTP 503")
	}
	if !paused {
		t.Errorf("no pause reported: %+v", evs)
	}
	for _, id := range []string{a.ID, b.ID} {
		got := getTask(t, s, id)
		if got.State != task.Closed {
			t.Errorf("%s is %s (%s), want closed", id, got.State, got.Summary)
		}
		for _, h := range got.History {
			if h.Kind == task.EventState && h.To == task.Failed {
				t.Errorf("%s failed on the way: %+v", id, h)
			}
		}
	}
}
