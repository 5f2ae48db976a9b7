package worker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/outage"
)

// spending is an agent that writes its file, tells the worker its spend
// grew to each of costs, and waits for the worker to stop it (an error
// naming what it cost), or completes when it is not stopped.
func spending(file string, costs ...float64) stepFn {
	return func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		os.WriteFile(filepath.Join(req.Dir, file), []byte("work\n"), 0o644)
		spent := agent.Spend{}
		for _, c := range costs {
			spent = agent.Spend{CostUSD: c, InputTokens: int64(c * 1e6), OutputTokens: 10}
			if req.Spent != nil {
				req.Spent(spent)
			}
		}
		if ctx.Err() != nil {
			return nil, &agent.RunError{Reason: "killed", ExitCode: -1, Err: ctx.Err(), Spend: spent}
		}
		return &agent.Outcome{Result: done("wrote " + file), SessionID: req.SessionID, Spend: spent}, nil
	}
}

// A run whose spend crosses the task's budget stops with its session and
// work kept and asks, naming what was spent; a yes resumes the same
// session free to spend as much again, and the task lands.
func TestBudgetCrossedStopsAsksAndYesResumes(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Config.Budget = config.BudgetConfig{PerTask: 2}
	tk := addTask(t, s, "Spend a lot")
	f := &fake{steps: []stepFn{spending("wip.txt", 0.5, 2.41), spending("rest.txt", 0.3)}}
	evs := runOnce(t, s, f)
	got := getTask(t, s, tk.ID)
	q := pendingOf(t, got)
	want := "This task has spent $2.41 of its $2.00 budget. Continue with $2.00 more?"
	if got.State != task.AwaitingInput || q.Question != want || q.Kind() != task.ApprovalQuestion {
		t.Fatalf("%s: question %q, want %q", got.State, q.Question, want)
	}
	run, _ := lastEvent(got, task.EventRunFinished)
	crossed, ok := lastEvent(got, task.EventBudgetCrossed)
	if run.CostUSD != 2.41 || run.Tokens != 2410010 || run.Status != "stopped" || !ok || crossed.CostUSD != 2.41 {
		t.Fatalf("run %+v, crossed %+v", run, crossed)
	}
	if fin := finishedEvents(evs); len(fin) != 1 || fin[0].Outcome != ending.OverBudget {
		t.Fatalf("finished: %+v", fin)
	}
	if !refExists(s.Root, git.ParkRef(tk.ID)) {
		t.Fatal("the partial work is not parked")
	}
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"yes"}}}, "alice"); err != nil {
		t.Fatal(err)
	}
	resumesAndCommits(t, s, f, tk.ID)
	got = getTask(t, s, tk.ID)
	if got.State != task.Closed || got.Budget != 4.41 || got.Spent() != 2.71 {
		t.Fatalf("%s, budget %v, spent %v", got.State, got.Budget, got.Spent())
	}
	if !strings.Contains(f.requests()[1].Prompt, want) {
		t.Errorf("the resume prompt lacks the question:\n%s", f.requests()[1].Prompt)
	}
}

// A no fails the task without running the agent again, its work kept; a
// task reopened after it runs again, and asks again at the same budget.
func TestBudgetNoFailsTheTaskItsWorkKept(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Config.Budget = config.BudgetConfig{Types: map[string]float64{"code": 1}}
	tk := addTask(t, s, "Spend a lot")
	f := &fake{steps: []stepFn{spending("wip.txt", 1.5), spending("more.txt", 0.1)}}
	runOnce(t, s, f)
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"no"}}}, "bob"); err != nil {
		t.Fatal(err)
	}
	runOnce(t, s, f)
	got := getTask(t, s, tk.ID)
	if got.State != task.Failed || len(f.requests()) != 1 || !strings.Contains(got.Summary, "answered no by bob") {
		t.Fatalf("%s after %d runs: %s", got.State, len(f.requests()), got.Summary)
	}
	if !refExists(s.Root, git.ParkRef(tk.ID)) || got.Budget != 0 {
		t.Fatalf("work parked %v, budget %v", refExists(s.Root, git.ParkRef(tk.ID)), got.Budget)
	}
	update(t, s, tk.ID, func(tk *task.Task) { tk.SetState(task.Open, now(s), "human", "reopened") })
	runOnce(t, s, f)
	if got = getTask(t, s, tk.ID); got.State != task.AwaitingInput || len(f.requests()) != 2 ||
		!strings.Contains(pendingOf(t, got).Question, "spent $1.60 of its $1.00 budget") {
		t.Fatalf("reopened: %s after %d runs: %+v", got.State, len(f.requests()), got.Questions)
	}
}

// Once the day's runs cost budget.perDay, no new run starts: the worker
// holds them back until midnight and says so where bh status reads it,
// until a human resumes the queue (bh worker --resume removes the
// pause's record); then only what runs cost from then on counts.
func TestDayBudgetHoldsNewRunsBack(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Config.Budget = config.BudgetConfig{PerDay: 1}
	a, b, c := addTask(t, s, "First"), addTask(t, s, "Second"), addTask(t, s, "Third")
	update(t, s, a.ID, func(tk *task.Task) { tk.Priority = "P0" })
	update(t, s, b.ID, func(tk *task.Task) { tk.Priority = "P1" })
	f := &fake{steps: []stepFn{spending("a.txt", 1.25), spending("b.txt", 1.5), spending("c.txt", 0.1)}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var pauses []string
	var pause *outage.Pause
	opt := Options{Runner: f, Once: true, Tick: 10 * time.Millisecond, Report: func(e Event) {
		if e.Kind != Paused {
			return
		}
		pauses = append(pauses, e.Summary)
		switch len(pauses) {
		case 1: // held back after the first task: resume
			pause = outage.PausedNow(s, now(s))
			if getTask(t, s, b.ID).State != task.Open {
				t.Errorf("the second task ran before the resume")
			}
			outage.Record(s, "", nil)
		case 3: // held back again after the second
			cancel()
		}
	}}
	if err := Run(ctx, ctx, s, opt); err != nil {
		t.Fatal(err)
	}
	want := "the day's budget: $1.25 of $1.00 spent"
	if pause == nil || pause.Reason != want || !strings.HasPrefix(pauses[0], want+"; new runs wait until midnight") {
		t.Fatalf("pause %+v, events %q", pause, pauses)
	}
	if len(pauses) != 3 || !strings.Contains(pauses[1], "runs start again") ||
		!strings.HasPrefix(pauses[2], "the day's budget: $1.50 of $1.00 spent") {
		t.Fatalf("events %q", pauses)
	}
	if getTask(t, s, b.ID).State != task.Closed || getTask(t, s, c.ID).State != task.Open || len(f.requests()) != 2 {
		t.Fatalf("%d runs; the third task is %s", len(f.requests()), getTask(t, s, c.ID).State)
	}
}
