package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
)

// script writes an executable shell script, the fake agent of these tests.
func script(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "agent.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCommandSuccess(t *testing.T) {
	dir := t.TempDir()
	agent := script(t, `cat > prompt.txt
printf '%s|%s|%s|%s|%s' "$BH_TASK_ID" "$BH_SESSION_ID" "$BH_RESUME" "$EXTRA" "$(pwd)" > env.txt
echo "working on it"
echo '{"status":"completed","summary":"did it","issues":["slow test"]}'
`)
	for _, resume := range []bool{false, true} {
		req := Request{Prompt: "-n not a flag\nsecond line", Dir: dir, SessionID: "s-1", Resume: resume,
			TaskID: "bh-abc", Env: []string{"EXTRA=x"}}
		out, err := NewCommand(CommandConfig{Argv: []string{agent}}).Run(context.Background(), req)
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		if out.Result.Status != StatusCompleted || out.Result.Summary != "did it" || len(out.Result.Issues) != 1 {
			t.Errorf("result = %+v", out.Result)
		}
		if out.SessionID != "s-1" || !strings.Contains(string(out.Raw), "working on it") {
			t.Errorf("outcome session %q raw %q", out.SessionID, out.Raw)
		}
		prompt, _ := os.ReadFile(filepath.Join(dir, "prompt.txt"))
		if string(prompt) != req.Prompt {
			t.Errorf("agent got prompt %q, want %q", prompt, req.Prompt)
		}
		env, _ := os.ReadFile(filepath.Join(dir, "env.txt"))
		want := "bh-abc|s-1||x|" + dir
		if resume {
			want = "bh-abc|s-1|1|x|" + dir
		}
		if string(env) != want {
			t.Errorf("agent env = %q, want %q", env, want)
		}
	}
}

func TestCommandBadOutput(t *testing.T) {
	tests := []struct {
		name, body string
		exit       int
		reason     string
		cause      error
	}{
		{"garbage", "echo 'I am done, trust me'", 0, "no result object", ErrNoResult},
		{"invalid status", `echo '{"status":"done","summary":"x"}'`, 0, `invalid status "done"`, ErrNoResult},
		{"non-zero exit", "echo '{\"status\":\"completed\",\"summary\":\"x\"}'\necho step1 >&2\necho 'fatal: no model' >&2\nexit 3",
			3, "agent exited with status 3: step1; fatal: no model", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			agent := script(t, tt.body)
			_, err := NewCommand(CommandConfig{Argv: []string{agent}}).Run(context.Background(), Request{Dir: t.TempDir()})
			var re *RunError
			if !errors.As(err, &re) {
				t.Fatalf("err = %v, want *RunError", err)
			}
			if re.ExitCode != tt.exit || !strings.Contains(re.Reason, tt.reason) || len(re.Raw) == 0 {
				t.Errorf("RunError{ExitCode: %d, Reason: %q, Raw: %q}, want exit %d and reason with %q",
					re.ExitCode, re.Reason, re.Raw, tt.exit, tt.reason)
			}
			if tt.cause != nil && !errors.Is(err, tt.cause) {
				t.Errorf("err = %v, want it to wrap %v", err, tt.cause)
			}
		})
	}
}

// hangingAgent prints some output, starts a child in its own process group
// and hangs; ignoreTerm makes the whole group deaf to SIGTERM.
func hangingAgent(t *testing.T, ignoreTerm bool) (agent, pidFile string) {
	pidFile = filepath.Join(t.TempDir(), "child.pid")
	trap := ""
	if ignoreTerm {
		trap = "trap '' TERM\n"
	}
	return script(t, trap+"echo partial output\nsleep 600 &\necho $! > "+pidFile+"\nsleep 600\n"), pidFile
}

func TestCommandTimeoutKillsProcessGroup(t *testing.T) {
	for _, ignoreTerm := range []bool{false, true} {
		t.Run("ignore-term="+strconv.FormatBool(ignoreTerm), func(t *testing.T) {
			agent, pidFile := hangingAgent(t, ignoreTerm)
			// The timeout must let the agent print first, on any machine.
			timeout := fakeapi.Patience(150 * time.Millisecond)
			c := NewCommand(CommandConfig{Argv: []string{agent}, Timeout: timeout})
			c.grace = 300 * time.Millisecond
			start := time.Now()
			_, err := c.Run(context.Background(), Request{Dir: t.TempDir()})
			elapsed := time.Since(start)
			var re *RunError
			if want := "agent timed out after " + timeout.String(); !errors.As(err, &re) || re.Reason != want {
				t.Fatalf("err = %v, want RunError %s", err, want)
			}
			if !errors.Is(err, context.DeadlineExceeded) || re.ExitCode != -1 {
				t.Errorf("err cause %v exit %d, want DeadlineExceeded and -1", re.Err, re.ExitCode)
			}
			if string(re.Raw) != "partial output\n" {
				t.Errorf("raw = %q, want the output printed before the hang", re.Raw)
			}
			// Far less than the agent's sleep, on any machine; and the grace
			// that a group deaf to SIGTERM gets is given in full.
			if elapsed > fakeapi.Patience(5*time.Second) || ignoreTerm && elapsed < timeout+c.grace {
				t.Errorf("run took %s", elapsed)
			}
			assertDead(t, pidFile)
		})
	}
}

func TestCommandCancel(t *testing.T) {
	agent, pidFile := hangingAgent(t, false)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { // once the agent has printed and started its child
		for b, _ := os.ReadFile(pidFile); len(b) == 0; b, _ = os.ReadFile(pidFile) {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	// The request's timeout overrides the runner's, and is not what fires.
	c := NewCommand(CommandConfig{Argv: []string{agent}, Timeout: time.Millisecond})
	_, err := c.Run(ctx, Request{Dir: t.TempDir(), Timeout: time.Minute})
	var re *RunError
	if !errors.As(err, &re) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want RunError caused by context.Canceled", err)
	}
	if !strings.Contains(re.Reason, "cancelled") || string(re.Raw) != "partial output\n" {
		t.Errorf("RunError{Reason: %q, Raw: %q}", re.Reason, re.Raw)
	}
	assertDead(t, pidFile)
}

func TestCommandNotConfigured(t *testing.T) {
	_, err := NewCommand(CommandConfig{}).Run(context.Background(), Request{})
	var re *RunError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want *RunError", err)
	}
	_, err = NewCommand(CommandConfig{Argv: []string{filepath.Join(t.TempDir(), "missing")}}).Run(context.Background(), Request{})
	if !errors.As(err, &re) || !strings.Contains(re.Reason, "start agent") {
		t.Fatalf("err = %v, want start failure", err)
	}
}

// assertDead checks that the process whose pid is in file is gone (or a
// zombie waiting for init, which holds nothing).
func assertDead(t *testing.T, file string) {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("read child pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(fakeapi.Patience(2 * time.Second))
	for {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if syscall.Kill(pid, 0) != nil || err == nil && strings.Contains(string(stat), ") Z ") {
			return
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("agent's child %d survived the run", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A command agent that says its service is out is an outage, as claude and
// codex are: by claude's own words, by exit status 75, or by the config's
// pattern; a failure of its own is not.
func TestCommandOutages(t *testing.T) {
	for _, tt := range []struct {
		name, body, pattern string
		want                Outage
	}{
		{"claude's words", "echo 'API Error: Connection refused (ECONNREFUSED)'; exit 1", "", OutageUnreachable},
		{"on stderr", "echo working; echo 'fetch failed: getaddrinfo ENOTFOUND api.example.com' >&2; exit 2", "", OutageUnreachable},
		{"not logged in", "echo 'Not logged in · Please run /login'; exit 1", "", OutageAuth},
		{"a usage limit", "echo 'Claude AI usage limit reached|1795860349'; exit 1", "", OutageLimit},
		{"exit 75", "echo 'the service said no'; exit 75", "", OutageOverloaded},
		{"the config's pattern", "echo 'HTTP 503 from the model'; exit 1", `HTTP 50\d`, OutageOverloaded},
		{"the pattern, no result", "echo 'quota gone'", `quota`, OutageOverloaded},
		{"its own failure", "echo 'tests failed'; exit 1", `HTTP 50\d`, ""},
		{"refused long before", "echo 'dial: connection refused'; for i in 1 2 3 4 5 6; do echo step $i; done; exit 1", "", ""},
	} {
		cfg := CommandConfig{Argv: []string{script(t, tt.body)}}
		if tt.pattern != "" {
			cfg.Outage = regexp.MustCompile(tt.pattern)
		}
		_, err := NewCommand(cfg).Run(context.Background(), Request{Dir: t.TempDir()})
		if err == nil || OutageOf(err) != tt.want {
			t.Errorf("%s: err %v, outage %q, want %q", tt.name, err, OutageOf(err), tt.want)
		}
		var re *RunError
		if tt.want == OutageLimit && (!errors.As(err, &re) || re.Limit == nil || re.Limit.ResetsAt.Unix() != 1795860349) {
			t.Errorf("%s: limit %+v, want its reset", tt.name, re)
		}
	}
}

// A command agent may say what its run cost in its result object; one
// that says nothing, or no amount, reports no cost.
func TestCommandReportsCost(t *testing.T) {
	for _, c := range []struct {
		result string
		want   Spend
	}{
		{`{"status":"completed","summary":"s","costUsd":0.42,"inputTokens":1000,"outputTokens":20}`,
			Spend{CostUSD: 0.42, InputTokens: 1000, OutputTokens: 20}},
		{`{"status":"completed","summary":"s"}`, Spend{}},
		{`{"status":"completed","summary":"s","costUsd":-3}`, Spend{}},
		{`{"status":"completed","summary":"s","costUsd":"a lot","inputTokens":5}`, Spend{}},
		// the cost is read from the object the result is: not an earlier one
		{`{"costUsd":9}` + "\n" + `{"status":"completed","summary":"s","costUsd":1}`, Spend{CostUSD: 1}},
	} {
		agent := script(t, "cat >/dev/null\ncat <<'EOF'\n"+c.result+"\nEOF\n")
		out, err := NewCommand(CommandConfig{Argv: []string{agent}}).Run(context.Background(),
			Request{Prompt: "p", Dir: t.TempDir(), SessionID: "s-1", TaskID: "bh-abc"})
		if err != nil {
			t.Fatalf("%s: %v", c.result, err)
		}
		if out.Spend != c.want {
			t.Errorf("%s: spend %+v, want %+v", c.result, out.Spend, c.want)
		}
	}
}
