package cmd

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/worker"
)

// The outcomes the scripts cannot reach cheaply, each as its lines.
func TestProgressLines(t *testing.T) {
	cases := []struct {
		e    worker.Event
		want string
	}{
		{worker.Event{Kind: worker.Waiting}, "waiting for ready tasks…\n"},
		{worker.Event{Kind: worker.Recovered, Task: "tm-a1", Summary: "recovered: worker pid 7 died"},
			"↺ tm-a1 recovered: worker pid 7 died\n"},
		{worker.Event{Kind: worker.Finished, Task: "tm-a1", Outcome: worker.Blocked, Question: "no CI token",
			Paths: []string{"x.go"}, Elapsed: 1500 * time.Millisecond},
			"⊘ tm-a1 blocked: no CI token\n  parked: x.go (bh diff tm-a1)\n  once it is unblocked: bh reopen tm-a1\n"},
		{worker.Event{Kind: worker.Finished, Task: "tm-a1", Outcome: worker.Conflict, Questions: []string{"Resolve x.go?"},
			Paths: []string{"x.go"}},
			"❓ tm-a1 needs human input: its parked work conflicts with the working tree\n  Question: Resolve x.go?\n" +
				"  answer with: bh respond tm-a1 \"...\"\n"},
		{worker.Event{Kind: worker.Finished, Task: "tm-a1", Outcome: worker.AgentError, Summary: "the agent timed out after 1m0s",
			Elapsed: 61 * time.Second, Err: errors.New("timeout")},
			"✗ tm-a1 failed in 1m1s: agent error: the agent timed out after 1m0s\n"},
	}
	for _, c := range cases {
		io, _, _, errOut := testIO()
		p := &progress{io: io, w: io.ErrOut}
		p.report(c.e)
		if got := errOut.String(); got != c.want {
			t.Errorf("%s %s:\ngot  %q\nwant %q", c.e.Kind, c.e.Outcome, got, c.want)
		}
	}
}

func TestProgressInterrupted(t *testing.T) {
	io, _, _, errOut := testIO()
	p := &progress{io: io, w: io.ErrOut}
	p.interrupted(false)
	p.report(worker.Event{Kind: worker.Started, Task: "tm-a1", Title: "T"})
	p.interrupted(false)
	p.interrupted(true)
	want := "stopping\n▶ tm-a1 T\nfinishing tm-a1, press Ctrl-C again to stop it\nstopping tm-a1: its work will be parked\n"
	if got := errOut.String(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	io, _, stdout, _ := testIO()
	p = &progress{io: io, w: io.ErrOut, json: true}
	p.report(worker.Event{Kind: worker.Started, Task: "tm-a1", Title: "T"})
	p.interrupted(true)
	if got := stdout.String(); !strings.Contains(got, `{"kind":"stopping","at":`) || !strings.Contains(got, `"taskId":"tm-a1","force":true}`) {
		t.Errorf("json: %s", got)
	}
}
