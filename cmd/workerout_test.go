package cmd

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker"
	"github.com/bh-tracker/bh/worker/ending"
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
		{worker.Event{Kind: worker.Finished, Task: "tm-a1", Outcome: ending.Blocked, Question: "no CI token",
			Paths: []string{"x.go"}, Elapsed: 1500 * time.Millisecond},
			"⊘ tm-a1 blocked: no CI token\n  parked: x.go (bh diff tm-a1)\n  once it is unblocked: bh reopen tm-a1\n"},
		{worker.Event{Kind: worker.Finished, Task: "tm-a1", Outcome: ending.Conflict, Questions: []string{"Resolve x.go?"},
			Summary: "landing on main conflicts in x.go", Paths: []string{"x.go"}},
			"❓ tm-a1 needs human input: landing on main conflicts in x.go\n  Question: Resolve x.go?\n" +
				"  answer with: bh respond tm-a1\n"},
		{worker.Event{Kind: worker.Finished, Task: "tm-a1", Outcome: ending.Conflict,
			Summary: "landing on main conflicts in x.go; the agent resolves it"},
			"↻ tm-a1 landing on main conflicts in x.go; the agent resolves it\n"},
		{worker.Event{Kind: worker.Finished, Task: "tm-a1", Outcome: ending.Failed, Summary: "cannot",
			Paths: []string{"x.go"}, Elapsed: 2 * time.Second},
			"✗ tm-a1 failed in 2s: cannot\n  discarded: x.go\n"},
		{worker.Event{Kind: worker.Finished, Task: "tm-a1", Outcome: ending.AgentError, Summary: "the agent timed out after 1m0s",
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

// A run recovered from a dead worker is not "stopped until the next
// start": the task is open again, and this worker takes it up.
func TestProgressRecoveredRun(t *testing.T) {
	io, _, _, errOut := testIO()
	p := &progress{io: io, w: io.ErrOut}
	p.report(worker.Event{Kind: worker.Recovered, Task: "tm-a1", Summary: "recovered: worker pid 7 died"})
	p.report(worker.Event{Kind: worker.Finished, Task: "tm-a1", Outcome: ending.Stopped, Elapsed: time.Second})
	p.report(worker.Event{Kind: worker.Finished, Task: "tm-a1", Outcome: ending.Stopped, Elapsed: time.Second})
	want := "↺ tm-a1 recovered: worker pid 7 died\n" +
		"⏹ tm-a1: the dead worker's run is over; the task is open again and resumes from its parked work\n" +
		"⏹ tm-a1 stopped after 1s; it resumes on the next start\n"
	if got := errOut.String(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
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

// The human-in-the-loop outcomes, each as its lines.
func TestProgressHITLLines(t *testing.T) {
	gated := &task.Task{ID: "tm-a1", Questions: []task.Question{
		{ID: "q1", Gate: true, Status: task.QuestionAnswered, Context: "old"},
		{ID: "q2", Gate: true, Type: task.ApprovalQuestion, Status: task.QuestionPending, Context: "wrote x.go\n\nHeld for approval: the task is gated " +
			"(gate: approval).\n\n x.go | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n"},
	}}
	lookup := func(id string) (*task.Task, error) {
		if id == gated.ID {
			return gated, nil
		}
		return nil, &task.NotFoundError{Ref: id}
	}
	cases := []struct {
		e    worker.Event
		want string
	}{
		{worker.Event{Kind: worker.Finished, Task: "tm-a1", Outcome: ending.Gated, Summary: "wrote x.go",
			Question: "Approve and commit tm-a1?", Paths: []string{"x.go"}},
			"✋ tm-a1 awaiting approval — wrote x.go\n  Held for approval: the task is gated (gate: approval).\n" +
				"  x.go | 2 +-\n  1 file changed, 1 insertion(+), 1 deletion(-)\n  parked: x.go (bh diff tm-a1)\n" +
				"  answer with: bh respond tm-a1 <--yes|--no>\n           or: bh respond tm-a1 --no <feedback> --comment <PATH:LINE=TEXT>\n"},
		{worker.Event{Kind: worker.Finished, Task: "tm-b2", Outcome: ending.Gated},
			"✋ tm-b2 awaiting approval\n  answer with: bh respond tm-b2\n"},
		{worker.Event{Kind: worker.Finished, Task: "tm-a1", Outcome: ending.Failed, Summary: ending.NoHumanSummary,
			Questions: []string{"Which parser?"}, Paths: []string{"p.go"}, Elapsed: time.Second},
			"✗ tm-a1 failed in 1s: needed a human but none was allowed\n  Question: Which parser?\n" +
				"  parked: p.go (bh diff tm-a1)\n  to let it ask: bh update tm-a1 --human=true && bh reopen tm-a1\n"},
		{worker.Event{Kind: worker.Finished, Task: "tm-a1", Outcome: ending.Stopped, Elapsed: 2 * time.Second,
			Summary: "the task became deferred while the worker had it; its work is parked", Paths: []string{"x.go"}},
			"⏹ tm-a1 stopped after 2s: the task became deferred while the worker had it; its work is parked\n" +
				"  parked: x.go (bh diff tm-a1)\n"},
		{worker.Event{Kind: worker.Finished, Task: "tm-a1", Outcome: ending.Stopped, Elapsed: 2 * time.Second},
			"⏹ tm-a1 stopped after 2s; it resumes on the next start\n"},
		{worker.Event{Kind: worker.Expired, Task: "tm-a1", Outcome: ending.TimeoutFailed,
			Summary: "no answer within 24h: the task failed"},
			"⌛ tm-a1: no answer within 24h — failed\n  to try again: bh reopen tm-a1\n"},
		{worker.Event{Kind: worker.Expired, Task: "tm-a1", Outcome: ending.TimeoutDeferred,
			Summary: "no answer within 90m: the task is deferred"},
			"⌛ tm-a1: no answer within 90m — deferred\n  bh reopen tm-a1 brings it back\n"},
		{worker.Event{Kind: worker.Expired, Task: "tm-a1", Outcome: ending.TimeoutDefaults,
			Summary: "no answer within 1h: default answers used; the task resumes and needs review"},
			"⌛ tm-a1: no answer within 1h — resumed with defaults (marked for review)\n"},
		{worker.Event{Kind: worker.Expired, Task: "tm-c3", Outcome: ending.TimeoutReminded, Question: "Which DB?",
			Summary: "no answer within 24h: reminded"},
			"⌛ tm-c3: no answer within 24h — reminded again\n  Question: Which DB?\n  answer with: bh respond tm-c3\n"},
	}
	for _, c := range cases {
		io, _, _, errOut := testIO()
		p := &progress{io: io, w: io.ErrOut, lookup: lookup}
		p.report(c.e)
		if got := errOut.String(); got != c.want {
			t.Errorf("%s %s:\ngot  %q\nwant %q", c.e.Kind, c.e.Outcome, got, c.want)
		}
	}
}

// A warning goes to stderr even where progress goes to stdout (bh demo),
// and is one event among the others with --json.
func TestProgressWarning(t *testing.T) {
	io, _, stdout, errOut := testIO()
	p := &progress{io: io, w: io.Out}
	p.report(worker.Event{Kind: worker.Warning, Summary: "notify webhook: 500 Internal Server Error"})
	if stdout.Len() > 0 || errOut.String() != "bh: warning: notify webhook: 500 Internal Server Error\n" {
		t.Errorf("stdout %q, stderr %q", stdout, errOut)
	}
	io, _, stdout, errOut = testIO()
	p = &progress{io: io, w: io.ErrOut, json: true}
	p.report(worker.Event{Kind: worker.Warning, Summary: "boom"})
	if !strings.HasPrefix(stdout.String(), `{"kind":"warning","at":`) || !strings.Contains(stdout.String(), `"summary":"boom"`) ||
		errOut.Len() > 0 {
		t.Errorf("json: stdout %q, stderr %q", stdout, errOut)
	}
}
