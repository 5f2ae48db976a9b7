package worker

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/slots"
)

// killGH stands in for gh: its Nth call kills the worker's process group
// with SIGKILL, before gh runs (between two steps) or while it runs (in
// the middle of one: the call may still reach GitHub).
const killGH = `#!/bin/sh
n=$(cat "$KILL_DIR/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$KILL_DIR/count"
echo "$*" >> "$KILL_DIR/calls"
if [ "$n" = "$KILL_AT" ]; then
  echo "$*" > "$KILL_DIR/killed"
  if [ "$KILL_HOW" = during ]; then
    "$REAL_GH" "$@" >/dev/null 2>&1
  fi
  kill -9 -$PPID
  exit 1
fi
exec "$REAL_GH" "$@"
`

// helperShepherd is a worker and its shepherd taking a land: pr task from
// open to closed: run, poll, run, poll, until the task is closed. Its
// agent writes a first version, and the fix when resumed with the failed
// check's log; every run is logged to $BH_RUNS.
func helperShepherd() int {
	s, err := store.Find(".")
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	agentFn := agent.RunnerFunc(func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		body := "package hello\n"
		if strings.Contains(req.Prompt, "--- FAIL: TestHello") {
			body += "\n// fixed\n"
		}
		f, _ := os.OpenFile(os.Getenv("BH_RUNS"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		fmt.Fprintf(f, "resume=%v fix=%v\n", req.Resume, strings.Contains(body, "fixed"))
		f.Close()
		if err := os.WriteFile(filepath.Join(req.Dir, "hello.go"), []byte(body), 0o644); err != nil {
			return nil, err
		}
		return &agent.Outcome{Result: agent.Result{Status: agent.StatusCompleted, Summary: "greets"},
			SessionID: req.SessionID}, nil
	})
	opt := Options{Runner: agentFn, Once: true, GH: os.Getenv("BH_GH")}
	ctx := context.Background()
	for range 6 {
		if err := Run(ctx, ctx, s, opt); err != nil {
			fmt.Println("error:", err)
			return 1
		}
		if err := Shepherd(ctx, s, opt); err != nil {
			fmt.Println("error:", err)
			return 1
		}
		if t, err := s.Get(os.Getenv("BH_TASK")); err == nil && t.State == task.Closed {
			return 0
		}
	}
	fmt.Println("error: not closed after 6 rounds")
	return 1
}

// TestShepherdKilledAtEveryGHCall kills the worker at each of its gh
// calls, before the call and in the middle of it, across the whole life
// of a pull request: opened, a failed check sent back to the session,
// the fix pushed, merged. Restarted, it finishes with one pull request,
// one round of feedback, the agent run twice (the first version and the
// fix, never again for the same feedback) and the task closed.
func TestShepherdKilledAtEveryGHCall(t *testing.T) {
	fakeapi.Real(t, "gh")
	realGH, err := exec.LookPath("gh")
	if err != nil {
		t.Fatalf("gh is not installed (apt-get install gh): %v", err)
	}
	root := t.TempDir()
	wrap := filepath.Join(root, "gh")
	if err := os.WriteFile(wrap, []byte(killGH), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := func(name string) string {
		d := filepath.Join(root, name)
		os.MkdirAll(d, 0o755)
		return d
	}
	calls := shepherdKilledAt(t, dir("none"), wrap, realGH, "none", 0)
	points := 0
	for n, args := range calls {
		// Killed during a call that only reads, gh changes nothing: the
		// same as before it. Only a write (pr create) is killed both ways.
		for _, how := range []string{"before", "during"} {
			if how == "during" && !strings.HasPrefix(args, "pr create") || !fakeapi.Sampled(n+1) {
				continue
			}
			points++
			shepherdKilledAt(t, dir(fmt.Sprintf("%s-%d", how, n+1)), wrap, realGH, how, n+1)
		}
	}
	t.Logf("killed at %d points: before each of its %d gh calls and during pr create (-short: one in ten)",
		points, len(calls))
}

// shepherdKilledAt runs the helper with gh call n killed (how: before,
// during, or none), then again to the end, checks the outcome and returns
// the gh calls the first run made.
func shepherdKilledAt(t *testing.T, dir, wrap, realGH, how string, n int) []string {
	t.Helper()
	s, gh, tk := prTask(t, "Greet")
	bare := gitT(t, s.Root, "remote", "get-url", "origin")
	fixed := func() bool { return strings.Contains(gitCat(bare, slots.Branch(tk.ID)+":hello.go"), "fixed") }
	gh.PlayCI(func(p *Pull) []CheckRun {
		if fixed() {
			return []CheckRun{{ID: 12, Name: "test", Conclusion: "success"}}
		}
		return []CheckRun{{ID: 11, Name: "test", Conclusion: "failure", Log: "--- FAIL: TestHello (0.00s)\n"}}
	}, func(p *Pull) bool { return fixed() })
	runs := filepath.Join(dir, "runs")
	helper := func(env ...string) error {
		c := exec.Command(os.Args[0], "-test.run=^$")
		c.Dir = s.Root
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // the wrapper kills this group: $PPID's
		c.Env = append(append(os.Environ(), "BH_WORKER_HELPER=shepherd", "BH_TASK="+tk.ID, "BH_RUNS="+runs,
			"BH_GH="+wrap, "REAL_GH="+realGH, "KILL_DIR="+dir), env...)
		out, err := c.CombinedOutput()
		if err != nil && !strings.Contains(err.Error(), "killed") {
			return fmt.Errorf("%v: %s", err, out)
		}
		return err
	}
	err := helper("KILL_HOW="+how, fmt.Sprintf("KILL_AT=%d", n))
	calls := strings.Split(strings.TrimSpace(readFile(t, dir, "calls")), "\n")
	if how == "none" {
		if err != nil {
			t.Fatal(err)
		}
	} else if err == nil {
		t.Fatalf("%s gh call %d: the worker was not killed", how, n)
	} else if err := helper("KILL_AT=0"); err != nil { // restarted: it finishes the job
		t.Fatalf("%s gh call %d (%s): after the restart: %v", how, n, readFile(t, dir, "killed"), err)
	}
	got := getTask(t, s, tk.ID)
	where := fmt.Sprintf("killed %s gh call %d", how, n)
	if how == "none" {
		where = "not killed"
	}
	if got.State != task.Closed || count(got, task.EventFeedback) != 1 || len(gh.Pulls()) != 1 {
		t.Fatalf("%s: %s with %d feedback rounds and %d pull requests, want closed, 1 and 1",
			where, got.State, count(got, task.EventFeedback), len(gh.Pulls()))
	}
	if r := readFile(t, dir, "runs"); r != "resume=false fix=false\nresume=true fix=true\n" {
		t.Fatalf("%s: the agent's runs:\n%s", where, r)
	}
	return calls
}

func gitCat(bare, rev string) string {
	out, err := exec.Command("git", "--git-dir", bare, "show", rev).Output()
	if err != nil {
		return ""
	}
	return string(out)
}
