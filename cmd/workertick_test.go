package cmd

import (
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/worker"
	"github.com/bh-tracker/bh/worker/ending"
)

// A long run is reported as still going until it finishes, and not after.
func TestProgressTicksWhileRunning(t *testing.T) {
	io, _, _, errOut := testIO()
	p := &progress{io: io, w: io.ErrOut, every: 5 * time.Millisecond}
	p.report(worker.Event{Kind: worker.Started, Task: "tm-a1", Title: "Slow"})
	text := func() string {
		p.mu.Lock()
		defer p.mu.Unlock()
		return errOut.String()
	}
	for deadline := time.Now().Add(fakeapi.Patience(5 * time.Second)); !strings.Contains(text(), "tm-a1 running for"); {
		if time.Now().After(deadline) {
			t.Fatalf("no running line:\n%s", text())
		}
		time.Sleep(time.Millisecond)
	}
	p.report(worker.Event{Kind: worker.Finished, Task: "tm-a1", Outcome: ending.Completed})
	after := text()
	time.Sleep(30 * time.Millisecond)
	if got := text(); got != after {
		t.Fatalf("ticked after the run finished:\n%s", strings.TrimPrefix(got, after))
	}
}
