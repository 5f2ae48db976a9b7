package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/google/uuid"
)

func TestClaudeResumeUnknownSession(t *testing.T) {
	t.Parallel()
	e := newE2E(t, ClaudeConfig{}, nil)
	session := uuid.NewString()
	_, err := e.run(t, "go on", session, true)
	var re *RunError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want *RunError", err)
	}
	if re.ExitCode != 1 || !strings.Contains(re.Reason, "No conversation found with session ID: "+session) ||
		!errors.Is(err, ErrSessionMissing) {
		t.Errorf("RunError{Reason: %q, ExitCode: %d}", re.Reason, re.ExitCode)
	}
	if n := len(e.srv.Requests()); n != 0 {
		t.Errorf("claude made %d requests for a session it does not have", n)
	}
}

// TestClaudeCancelKillsClaude stops a run while claude waits for the model:
// claude and anything it started must be gone when Run returns.
func TestClaudeCancelKillsClaude(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// BH_TASK_ID is in the environment of claude and of all it starts.
	mark := "BH_TASK_ID=bh-" + uuid.NewString()
	waiting := make(chan []int, 1)
	e := newE2E(t, ClaudeConfig{}, func(*fakeapi.Request) fakeapi.Turn {
		select {
		case waiting <- processesWithEnv(mark):
		default:
		}
		cancel()
		return fakeapi.Hang()
	})
	e.claude.grace = time.Second
	start := time.Now()
	_, err := e.claude.Run(ctx, Request{Prompt: "think forever", Dir: e.dir, SessionID: uuid.NewString(),
		TaskID: strings.TrimPrefix(mark, "BH_TASK_ID="), Env: e.env})
	t.Logf("cancelled run took %s", time.Since(start))
	var re *RunError
	if !errors.As(err, &re) || !errors.Is(err, context.Canceled) || re.ExitCode != -1 {
		t.Fatalf("err = %v, want a RunError caused by context.Canceled", err)
	}
	during := <-waiting
	if len(during) == 0 {
		t.Fatalf("found no claude process with %s while it ran", mark)
	}
	if pids := processesWithEnv(mark); len(pids) > 0 {
		t.Errorf("processes %v (of %v) still run after cancellation", pids, during)
	}
}

// processesWithEnv lists live processes whose environment holds kv exactly.
func processesWithEnv(kv string) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, ent := range ents {
		pid, err := strconv.Atoi(ent.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", ent.Name(), "environ"))
		stat, _ := os.ReadFile(filepath.Join("/proc", ent.Name(), "stat"))
		if err == nil && !bytes.Contains(stat, []byte(") Z ")) && bytes.Contains(append(env, 0), []byte(kv+"\x00")) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestClaudeAllowedTools shows that AllowedTools reach claude: in dontAsk
// mode only pre-approved tools may run.
func TestClaudeAllowedTools(t *testing.T) {
	t.Parallel()
	for _, allowed := range [][]string{nil, {"Write"}} {
		t.Run(strings.Join(append([]string{"allowed"}, allowed...), "-"), func(t *testing.T) {
			t.Parallel()
			e := newE2E(t, ClaudeConfig{PermissionMode: "dontAsk", AllowedTools: allowed}, fakeapi.Sequence(
				fakeapi.Reply(fakeapi.Write("out.txt", "x")),
				fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "tried"})),
			))
			if _, err := e.run(t, "write out.txt", uuid.NewString(), false); err != nil {
				t.Fatalf("Run: %v", err)
			}
			_, statErr := os.Stat(filepath.Join(e.dir, "out.txt"))
			if written := statErr == nil; written != (allowed != nil) {
				t.Errorf("out.txt written = %v with allowed tools %q", written, allowed)
			}
		})
	}
}

// TestClaudeOverloadIsRetriedBrieflyAndSaid: with bh's cap on claude's own
// retries, a 529 is retried a few times (each retry a step the worker
// shows), and the run goes on when the API is back.
func TestClaudeOverloadIsRetriedBrieflyAndSaid(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	e := newE2E(t, ClaudeConfig{}, func(*fakeapi.Request) fakeapi.Turn {
		if calls.Add(1) == 1 {
			return fakeapi.Fail(529, "overloaded_error", "busy")
		}
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "done"}))
	})
	e.env = slices.DeleteFunc(e.env, func(kv string) bool { return strings.HasPrefix(kv, "CLAUDE_CODE_MAX_RETRIES=") })
	var steps []string
	var mu sync.Mutex
	out, err := e.claude.Run(context.Background(), Request{Prompt: "go", Dir: e.dir, SessionID: uuid.NewString(),
		Env: e.env, Step: func(s string) { mu.Lock(); steps = append(steps, s); mu.Unlock() }})
	if err != nil || out.Result.Status != StatusCompleted {
		t.Fatalf("run: %v %+v", err, out)
	}
	mu.Lock()
	defer mu.Unlock()
	want := fmt.Sprintf("(attempt 1 of %d)", ClaudeRetries)
	if len(steps) == 0 || !strings.Contains(steps[0], "the API answered 529") || !strings.Contains(steps[0], want) {
		t.Errorf("steps %q, want the retry said, %s", steps, want)
	}
}
