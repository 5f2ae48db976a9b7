package worker

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/taskprompt"
)

func gatedTask(t testing.TB, s *store.Store, title string) *task.Task {
	t.Helper()
	tk := addTask(t, s, title)
	return update(t, s, tk.ID, func(tk *task.Task) { tk.Gate = task.GateApproval })
}

func TestGateParksThenApprovalCommitsWithoutAnotherRun(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := gatedTask(t, s, "Write v1")
	head := gitT(t, s.Root, "rev-parse", "HEAD")
	f := &fake{steps: []stepFn{step(map[string]string{"v1.txt": "one\n"}, done("Wrote v1.txt."))}}
	evs := runWith(t, s, Options{Runner: f})

	got := getTask(t, s, tk.ID)
	q := pendingOf(t, got)
	if got.State != task.AwaitingInput || !q.Gate || q.Type != task.ApprovalQuestion || q.Header != "Approval" ||
		q.Question != "Approve this change and land it on master?" || got.Question != q.Question {
		t.Fatalf("gated task: state %s question %+v", got.State, q)
	}
	for _, want := range []string{"Wrote v1.txt.", "gate: approval", "v1.txt | 1 +"} {
		if !strings.Contains(q.Context, want) {
			t.Errorf("approval context lacks %q:\n%s", want, q.Context)
		}
	}
	if q.ExpiresAt == nil || !q.ExpiresAt.Equal(q.AskedAt.Add(task.DefaultHumanTimeout)) {
		t.Errorf("expiresAt %v, asked %v", q.ExpiresAt, q.AskedAt)
	}
	if gitT(t, s.Root, "rev-parse", "HEAD") != head || exists(s.Root, "v1.txt") || !refExists(s.Root, git.ParkRef(tk.ID)) {
		t.Fatal("gated work was committed or left in the tree instead of parked")
	}
	if fin := finishedEvents(evs); len(fin) != 1 || fin[0].Outcome != ending.Gated || fin[0].Question != q.Question {
		t.Fatalf("finished: %+v", fin)
	}

	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"yes"}}}, "alice"); err != nil {
		t.Fatal(err)
	}
	evs = runWith(t, s, Options{Runner: f})
	if n := len(f.requests()); n != 1 {
		t.Fatalf("the agent ran %d times; an approval must not run it again", n)
	}
	got = getTask(t, s, tk.ID)
	if got.State != task.Closed || got.Summary != "Wrote v1.txt." || got.Lease != nil {
		t.Fatalf("approved task: state %s summary %q", got.State, got.Summary)
	}
	if c := committed(t, s.Root, "HEAD"); !slices.Equal(c, []string{".bh/tasks/" + tk.ID + ".yaml", "v1.txt"}) {
		t.Fatalf("approved commit holds %v", c)
	}
	if gitT(t, s.Root, "rev-parse", "HEAD~1") != head || refExists(s.Root, git.ParkRef(tk.ID)) {
		t.Fatal("want exactly one commit and no parked ref left")
	}
	if e, ok := lastEvent(got, task.EventState); !ok || e.To != task.Closed || e.Text != "approved by alice" {
		t.Fatalf("closing event: %+v", e)
	}
	if fin := finishedEvents(evs); len(fin) != 1 || fin[0].Outcome != ending.Completed || fin[0].Commit == "" {
		t.Fatalf("finished: %+v", fin)
	}
}

func TestGateRejectResumesWithFeedbackUntilApproved(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := gatedTask(t, s, "Write the file")
	head := gitT(t, s.Root, "rev-parse", "HEAD")
	var restored bool
	f := &fake{steps: []stepFn{
		step(map[string]string{"v1.txt": "draft\n"}, done("Wrote v1.txt.")),
		func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
			restored = exists(req.Dir, "v1.txt")
			return step(map[string]string{"v1.txt": "", "final.txt": "final\n"}, done("Renamed to final.txt."))(ctx, req)
		},
	}}
	runWith(t, s, Options{Runner: f})
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"no"}, Comment: "rename it to final.txt"}}, "bob"); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Runner: f})

	reqs := f.requests()
	if len(reqs) != 2 || !reqs[1].Resume || reqs[1].SessionID != reqs[0].SessionID {
		t.Fatalf("want a resume of the same session: %+v", reqs)
	}
	for _, want := range []string{"Reviewer feedback", "rename it to final.txt", "Approve this change and land it on master?"} {
		if !strings.Contains(reqs[1].Prompt, want) {
			t.Errorf("resume prompt lacks %q:\n%s", want, reqs[1].Prompt)
		}
	}
	if !restored {
		t.Error("the rejected work was not back in the tree for the second round")
	}
	got := getTask(t, s, tk.ID)
	q := pendingOf(t, got)
	if got.State != task.AwaitingInput || !q.Gate || !strings.Contains(q.Context, "final.txt") {
		t.Fatalf("second round not gated again: %s %+v", got.State, q)
	}
	if gitT(t, s.Root, "rev-parse", "HEAD") != head {
		t.Fatal("a rejected or unapproved round was committed")
	}

	if _, err := Respond(s, tk.ID, []task.Answer{{QuestionID: q.ID, Values: []string{"yes"}}}, "bob"); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Runner: f})
	if n := len(f.requests()); n != 2 {
		t.Fatalf("the agent ran %d times, want 2", n)
	}
	if c := committed(t, s.Root, "HEAD"); !slices.Equal(c, []string{".bh/tasks/" + tk.ID + ".yaml", "final.txt"}) {
		t.Fatalf("final commit holds %v", c)
	}
	if gitT(t, s.Root, "rev-parse", "HEAD~1") != head {
		t.Fatal("want one commit for the task")
	}
	got = getTask(t, s, tk.ID)
	gates := 0
	for _, q := range got.Questions {
		if q.Gate && q.Status == task.QuestionAnswered {
			gates++
		}
	}
	if got.State != task.Closed || gates != 2 || got.Questions[0].AnswerText() != "no: rename it to final.txt" {
		t.Fatalf("closed task: %s, questions %+v", got.State, got.Questions)
	}
	for kind, want := range map[string]int{task.EventInputRequested: 2, task.EventInputReceived: 2,
		task.EventRunStarted: 2, task.EventRunFinished: 2, task.EventParked: 2, task.EventUnparked: 0, task.EventCommit: 1} {
		if n := count(got, kind); n != want {
			t.Errorf("history has %d %s events, want %d", n, kind, want)
		}
	}
}

// A rejection's feedback goes to the next run only: after it ran, the
// prompt no longer carries it.
func TestFeedbackOnlyForTheRunAfterTheRejection(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := gatedTask(t, s, "Feedback once")
	runWith(t, s, Options{Runner: &fake{steps: []stepFn{step(map[string]string{"a.txt": "a\n"}, done("a"))}}})
	got, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"no"}}}, "")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := taskprompt.Prompt(s, got, true)
	if !strings.Contains(p, "Reviewer feedback") || !strings.Contains(p, "gave no reason") {
		t.Fatalf("a bare no gives no feedback section:\n%s", p)
	}
	ask := agent.Result{Status: agent.StatusNeedsInput, Summary: "?", Question: "Which name?"}
	runWith(t, s, Options{Runner: &fake{steps: []stepFn{step(nil, ask)}}})
	got, _ = Respond(s, tk.ID, []task.Answer{{Values: []string{"b.txt"}}}, "")
	if p, _ := taskprompt.Prompt(s, got, true); strings.Contains(p, "Reviewer feedback") || !strings.Contains(p, "Answer: b.txt") {
		t.Fatalf("stale feedback or missing answer:\n%s", p)
	}
}

func TestConfidenceGate(t *testing.T) {
	t.Parallel()
	conf := func(c float64) *float64 { return &c }
	for _, c := range []struct {
		name      string
		threshold float64
		gate      string
		conf      *float64
		gated     bool
	}{
		{"below", 0.7, "", conf(0.55), true},
		{"above", 0.7, "", conf(0.9), false},
		{"equal", 0.7, "", conf(0.7), false},
		{"no threshold", 0, "", conf(0.1), false},
		{"no confidence reported", 0.7, "", nil, false},
		{"gate none", 0.7, task.GateNone, conf(0.1), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newStore(t)
			s.Config.Gate.BelowConfidence = c.threshold
			tk := update(t, s, addTask(t, s, "Unsure").ID, func(tk *task.Task) { tk.Gate = c.gate })
			res := done("did it")
			res.Confidence = c.conf
			runWith(t, s, Options{Runner: &fake{steps: []stepFn{step(map[string]string{"x.txt": "x\n"}, res)}}})
			got := getTask(t, s, tk.ID)
			if !c.gated {
				if got.State != task.Closed || !slices.Contains(committed(t, s.Root, "HEAD"), "x.txt") {
					t.Fatalf("not committed: %s", got.State)
				}
				return
			}
			q := pendingOf(t, got)
			if got.State != task.AwaitingInput || !q.Gate || !strings.Contains(q.Context, "confidence 0.55 < 0.7") {
				t.Fatalf("not gated with the reason: %s %+v", got.State, q)
			}
			if !refExists(s.Root, git.ParkRef(tk.ID)) || exists(s.Root, "x.txt") {
				t.Fatal("gated work not parked")
			}
		})
	}
}

// An approval may come while no worker runs; the next start acts on it.
func TestApprovalSurvivesAStopAndReopen(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := gatedTask(t, s, "Approve later")
	f := &fake{steps: []stepFn{step(map[string]string{"v.txt": "v\n"}, done("v"))}}
	runWith(t, s, Options{Runner: f})
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"yes"}}}, ""); err != nil {
		t.Fatal(err)
	}
	update(t, s, tk.ID, func(tk *task.Task) { tk.SetState(task.Deferred, time.Now(), "human", "later") })
	runWith(t, s, Options{Runner: f})
	if getTask(t, s, tk.ID).State != task.Deferred {
		t.Fatal("a deferred task was worked on")
	}
	update(t, s, tk.ID, func(tk *task.Task) { tk.SetState(task.Open, time.Now(), "human", "reopen") })
	runWith(t, s, Options{Runner: f})
	if got := getTask(t, s, tk.ID); got.State != task.Closed || len(f.requests()) != 1 {
		t.Fatalf("approved work after reopen: %s, %d runs", got.State, len(f.requests()))
	}
	// Reopened after its commit, the task is new work: the agent runs.
	update(t, s, tk.ID, func(tk *task.Task) { tk.SetState(task.Open, time.Now(), "human", "more") })
	f.steps = append(f.steps, step(map[string]string{"w.txt": "w\n"}, done("w")))
	runWith(t, s, Options{Runner: f})
	if got := getTask(t, s, tk.ID); got.State != task.AwaitingInput || len(f.requests()) != 2 {
		t.Fatalf("reopened closed task: %s, %d runs", got.State, len(f.requests()))
	}
}
