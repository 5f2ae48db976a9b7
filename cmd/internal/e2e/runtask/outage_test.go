package runtask

import (
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/cmd/internal/e2e"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker"
)

// TestRunTaskUsageLimitPauses: the real Claude Code CLI in a pod meets
// its usage limit; the pod's outcome carries the outage and its reset,
// and the worker treats it as a local run's: it pauses for the limit and
// fails no task (the task is open again, for a run after the reset).
func TestRunTaskUsageLimitPauses(t *testing.T) {
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "never"}))
	})
	reset := time.Now().Add(time.Hour).Truncate(time.Second)
	srv.Exhaust(reset, 0)
	config := "agent:\n  kind: claude\n  binary: " + fakeapi.Claude(t) + "\n  timeout: " + e2e.RealTimeout + "\nremote: origin\nlease: 1m\n"
	cl, ids := newCluster(t, config, "Hit the limit")
	id := ids[0]
	cl.events = make(chan worker.Event, 100)
	done := cl.work(t)
	p := cl.next(t, id, done)
	env := append(fakeapi.Subscriber(fakeapi.Env(t, srv)), "CLAUDE_CODE_MAX_RETRIES=")
	cl.run(t, p, env...)
	for stopped := false; !stopped; { // a paused worker waits for the reset: stop it then
		select {
		case e := <-cl.events:
			stopped = e.Kind == worker.Paused
		case err := <-done:
			t.Fatalf("the worker ended (%v) and did not pause", err)
		}
	}
	cl.stop()
	if err := <-done; err != nil {
		t.Fatalf("the worker's run: %v", err)
	}
	got, err := cl.s.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	paused := false
	for _, e := range got.History {
		paused = paused || e.Kind == task.EventLimitPaused
	}
	if got.State == task.Failed || !paused {
		t.Fatalf("after the usage limit in a pod: %s (%s), paused %v; history %+v", got.State, got.Summary, paused, got.History)
	}
	if !cl.claimGone(t, p) {
		t.Fatal("the SandboxClaim is still there")
	}
}
