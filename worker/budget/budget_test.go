package budget

import (
	"context"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/notify"
	"github.com/bh-tracker/bh/worker/outage"
)

// The day's sum counts every run.finished since local midnight, of
// every task, and nothing else.
func TestTodaySumsTheDaysRuns(t *testing.T) {
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = time.FixedZone("UTC+5", 5*3600)
	now := time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC) // 08:00 local
	midnight := dayStart(now)
	if want := time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC); !midnight.Equal(want) {
		t.Fatalf("midnight %v, want %v", midnight, want)
	}
	run := func(at time.Time, usd float64) task.Event {
		return task.Event{Kind: task.EventRunFinished, At: at.UTC(), CostUSD: usd}
	}
	a := &task.Task{History: []task.Event{
		run(midnight.Add(-time.Second), 100), // yesterday, local time (today in UTC)
		run(midnight, 1.5),
		{Kind: task.EventBudgetCrossed, At: now, CostUSD: 50}, // a task's total, not a run
	}}
	b := &task.Task{History: []task.Event{run(now.Add(-time.Hour), 0.25), run(now, 2)}}
	if got := spentSince([]*task.Task{a, b}, midnight); got != 3.75 {
		t.Errorf("today: %v, want 3.75", got)
	}
	if got := spentSince([]*task.Task{a, b}, dayStart(now.Add(24*time.Hour))); got != 0 {
		t.Errorf("tomorrow: %v, want 0", got)
	}
}

// A yes to going on lets the task spend as much again as its budget on top
// of what it spent, once: the run it starts writes it, and a later budget
// counts from there.
func TestLimitRaisedByAYesOnce(t *testing.T) {
	c := config.Config{Budget: config.BudgetConfig{PerTask: 2, Types: map[string]float64{"docs": 1.5}}}
	tk := &task.Task{Type: "docs", State: task.AwaitingInput, History: []task.Event{{Kind: task.EventRunFinished, CostUSD: 1.75}}, Questions: []task.Question{{ID: "q1", Header: "Budget",
		Type: task.ApprovalQuestion, Status: task.QuestionPending, Question: "Continue with $1.50 more?"}}}
	if b, raised := Limit(tk, c); b != 1.5 || raised {
		t.Fatalf("before the answer: %v %v", b, raised)
	}
	if err := tk.Answer([]task.Answer{{Values: []string{"yes"}}}, time.Now(), "alice"); err != nil {
		t.Fatal(err)
	}
	if b, raised := Limit(tk, c); b != 3.25 || !raised {
		t.Fatalf("after a yes: %v %v", b, raised)
	}
	Raise(tk, c)
	tk.Record(time.Now(), task.Event{Kind: task.EventRunStarted})
	if b, raised := Limit(tk, c); b != 3.25 || raised || tk.Budget != 3.25 {
		t.Fatalf("once the run began: %v %v (task's %v)", b, raised, tk.Budget)
	}
}

// The meter stops a run once, with the spend that crossed, when the
// task's earlier runs and this one cost more than its budget.
func TestMeterStopsAtTheBudget(t *testing.T) {
	tk := &task.Task{Budget: 1, History: []task.Event{{Kind: task.EventRunFinished, CostUSD: 0.6}}}
	ctx, cancel := context.WithCancelCause(context.Background())
	m := Meter(tk, config.Config{}, cancel)
	m(agent.Spend{CostUSD: 0.4})
	if ctx.Err() != nil {
		t.Fatal("stopped at exactly the budget")
	}
	m(agent.Spend{CostUSD: 0.5})
	m(agent.Spend{CostUSD: 0.9})
	c, ok := context.Cause(ctx).(*crossed)
	if !ok || c.Spent != 1.1 || c.Budget != 1 {
		t.Fatalf("cause %v", context.Cause(ctx))
	}
	if Meter(&task.Task{}, config.Config{}, cancel) != nil {
		t.Error("a meter for a task without a budget")
	}
}

// A worker started after a human resumed the day's pause (bh worker
// --resume, which removes the pause's record) forgives what the one that
// paused had seen spent, and pauses again only past perDay more.
func TestDayResumeOutlivesTheWorker(t *testing.T) {
	dir := t.TempDir()
	if err := git.InitDemo(dir); err != nil {
		t.Fatal(err)
	}
	s, _, err := store.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Config.Budget.PerDay = 1
	now := time.Now()
	tk, err := s.Create(&task.Task{Title: "Spent"})
	if err != nil {
		t.Fatal(err)
	}
	spend := func(usd float64) {
		if _, err := s.Update(tk.ID, func(t *task.Task) error {
			t.Record(now, task.Event{Kind: task.EventRunFinished, CostUSD: usd})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	quiet := func(string, time.Duration) {}
	spend(1.5)
	first := &Day{Tell: quiet, Send: func(notify.Event) {}}
	if err := first.Check(s, now); err != nil || first.Wait(s, now) == 0 {
		t.Fatalf("no pause at $1.50 of $1.00 (%v)", err)
	}
	outage.Record(s, "", nil) // bh worker --resume
	later := &Day{Tell: quiet, Send: func(notify.Event) {}}
	if err := later.Check(s, now); err != nil || later.Wait(s, now) != 0 {
		t.Fatalf("a later worker pauses again after the resume (%v)", err)
	}
	spend(1.25)
	if err := later.Check(s, now); err != nil || later.Wait(s, now) == 0 {
		t.Fatalf("no pause at $1.25 more (%v)", err)
	}
}
