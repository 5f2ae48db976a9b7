package worker

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
)

func TestAgentErrorFailsTaskKeepsWorkAndGoesOn(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	bad := addTask(t, s, "Crashes")
	bad, _ = s.Update(bad.ID, func(tk *task.Task) error { tk.Priority = "P0"; return nil })
	next := addTask(t, s, "Works")
	crash := func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		os.WriteFile(filepath.Join(req.Dir, "partial.go"), []byte("package p\n"), 0o644)
		return nil, &agent.RunError{Reason: "claude exited with status 1", ExitCode: 1,
			Raw: []byte("RAW-STDOUT"), Stderr: []byte("RAW-STDERR")}
	}
	evs := runOnce(t, s, &fake{steps: []stepFn{crash, step(map[string]string{"ok.go": "package ok\n"}, done("ok"))}})

	got := getTask(t, s, bad.ID)
	if got.State != task.Failed || !strings.Contains(got.Summary, "claude exited with status 1") {
		t.Fatalf("crashed task: state %s summary %q", got.State, got.Summary)
	}
	if !refExists(s.Root, git.ParkRef(bad.ID)) || exists(s.Root, "partial.go") {
		t.Fatal("partial work not parked")
	}
	logs, _ := filepath.Glob(store.RunDir(s, bad.ID, "*.log"))
	if len(logs) != 1 {
		t.Fatalf("run logs: %v", logs)
	}
	if l := readFile(t, "/", logs[0]); !strings.Contains(l, "RAW-STDOUT") || !strings.Contains(l, "RAW-STDERR") {
		t.Fatalf("run log lacks the raw output:\n%s", l)
	}
	if !strings.HasPrefix(logs[0], filepath.Join(s.Root, ".git")+string(filepath.Separator)) {
		t.Fatalf("run log %s is not in the git dir, out of git clean's reach", logs[0])
	}
	if g := getTask(t, s, next.ID); g.State != task.Closed {
		t.Fatalf("the worker did not go on: next is %s", g.State)
	}
	if got := committed(t, s.Root, "HEAD"); slices.Contains(got, "partial.go") {
		t.Fatal("crashed task's work leaked into the next commit")
	}
	if fin := finishedEvents(evs); fin[0].Outcome != ending.AgentError || fin[0].Err == nil {
		t.Fatalf("finished: %+v", fin)
	}
}

func TestHungAgentTimesOut(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := addTask(t, s, "Hangs")
	// The timeout must give sh time to write its draft, on any machine.
	r, err := NewRunner(config.AgentConfig{Kind: "command", Timeout: config.ParseDuration(fakeapi.Patience(150 * time.Millisecond).String()),
		Command: []string{"sh", "-c", "echo draft > draft.txt; exec sleep 3600"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	runOnce(t, s, r) // without the timeout this never returns, and go test fails
	got := getTask(t, s, tk.ID)
	if got.State != task.Failed || !strings.Contains(strings.ToLower(got.Summary), "time") {
		t.Fatalf("hung task: state %s summary %q", got.State, got.Summary)
	}
	if !refExists(s.Root, git.ParkRef(tk.ID)) || exists(s.Root, "draft.txt") {
		t.Fatal("hung agent's draft not parked")
	}
}

// Ctrl-C: the first (stop) lets the agent finish, the second (kill) stops
// it; the task is left to resume the same session on the next start.
func TestKillStopsAgentAndTaskResumes(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := addTask(t, s, "Long job")
	running := make(chan struct{})
	hang := func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		os.WriteFile(filepath.Join(req.Dir, "wip.txt"), []byte("wip\n"), 0o644)
		close(running)
		<-ctx.Done()
		return nil, &agent.RunError{Reason: "killed", ExitCode: -1, Err: ctx.Err()}
	}
	f := &fake{steps: []stepFn{hang, step(map[string]string{"rest.txt": "rest\n"}, done("finished"))}}
	kill, killNow := context.WithCancel(context.Background())
	stop, stopNow := context.WithCancel(kill)
	errc := make(chan error, 1)
	go func() { errc <- Run(stop, kill, s, Options{Runner: f}) }()
	<-running
	stopNow()
	select {
	case err := <-errc:
		t.Fatalf("stop ended the running agent: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	killNow()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	got := getTask(t, s, tk.ID)
	if got.State != task.Open || got.Lease != nil {
		t.Fatalf("killed task: state %s lease %+v", got.State, got.Lease)
	}
	if _, ok := lastEvent(got, task.EventStopped); !ok || !refExists(s.Root, git.ParkRef(tk.ID)) || exists(s.Root, "wip.txt") {
		t.Fatal("killed run not parked and noted")
	}
	resumesAndCommits(t, s, f, tk.ID)
}

func TestStopLetsTheRunningAgentFinish(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	first := addTask(t, s, "Running")
	first, _ = s.Update(first.ID, func(tk *task.Task) error { tk.Priority = "P0"; return nil })
	second := addTask(t, s, "Not started")
	stop, stopNow := context.WithCancel(context.Background())
	slow := func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		stopNow() // Ctrl-C while the agent works
		time.Sleep(50 * time.Millisecond)
		if ctx.Err() != nil {
			t.Error("stop cancelled the agent's context")
		}
		return step(map[string]string{"a.txt": "a\n"}, done("done anyway"))(ctx, req)
	}
	if err := Run(stop, context.Background(), s, Options{Runner: &fake{steps: []stepFn{slow}}}); err != nil {
		t.Fatal(err)
	}
	if getTask(t, s, first.ID).State != task.Closed || getTask(t, s, second.ID).State != task.Open {
		t.Fatal("stop did not finish the running task and stop there")
	}
}

// A pre-commit hook that refuses the commit is a failed check; past the
// last round (checkRounds: 1) the task waits with its output, its work
// parked, nothing committed (hook_test.go has the rounds).
func TestCommitFailureParksTheWork(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Config.CheckRounds = 1
	tk := addTask(t, s, "Rejected by hook")
	writeFile(t, s.Root, ".git/hooks/pre-commit", "#!/bin/sh\necho 'lint failed' >&2\nexit 1\n")
	os.Chmod(filepath.Join(s.Root, ".git/hooks/pre-commit"), 0o755)
	head := gitT(t, s.Root, "rev-parse", "HEAD")
	runOnce(t, s, &fake{steps: []stepFn{step(map[string]string{"x.go": "package x\n"}, done("done"))}})
	if gitT(t, s.Root, "rev-parse", "HEAD") != head {
		t.Fatal("committed despite the hook")
	}
	got := getTask(t, s, tk.ID)
	if evs := checkEvents(got); got.State != task.AwaitingInput || len(evs) != 1 || evs[0].Output != "lint failed" ||
		!strings.HasPrefix(got.Summary, "check failed (round 1 of 1): "+filepath.Join(s.Root, ".git", "hooks", "pre-commit")) {
		t.Fatalf("task: state %s summary %q checks %+v", got.State, got.Summary, evs)
	}
	if !refExists(s.Root, git.ParkRef(tk.ID)) || exists(s.Root, "x.go") {
		t.Fatal("work not parked after a failed commit")
	}
}

func TestWorkerTimeoutStopsAHungRunner(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := addTask(t, s, "Hangs in process")
	tk, _ = s.Update(tk.ID, func(tk *task.Task) error { tk.Priority = "P0"; return nil })
	hang := func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		os.WriteFile(filepath.Join(req.Dir, "stuck.txt"), []byte("stuck\n"), 0o644)
		<-ctx.Done() // a runner with no timeout of its own
		return nil, ctx.Err()
	}
	next := addTask(t, s, "After the hang")
	ctx := context.Background()
	err := Run(ctx, ctx, s, Options{Runner: &fake{steps: []stepFn{hang, step(nil, done("ok"))}}, Once: true,
		Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	got := getTask(t, s, tk.ID)
	if got.State != task.Failed || !strings.Contains(got.Summary, "timed out after 200ms") {
		t.Fatalf("hung task: state %s summary %q", got.State, got.Summary)
	}
	if !refExists(s.Root, git.ParkRef(tk.ID)) || exists(s.Root, "stuck.txt") {
		t.Fatal("hung run's work not parked")
	}
	if getTask(t, s, next.ID).State != task.Closed {
		t.Fatal("the worker did not go on after the timeout")
	}
}
