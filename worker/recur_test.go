package worker

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
)

// setClock gives s a clock the test moves by hand, starting at now.
func setClock(s *store.Store, now time.Time) (set func(time.Time)) {
	var mu sync.Mutex
	s.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	return func(t time.Time) { mu.Lock(); defer mu.Unlock(); now = t }
}

// weeklyAgent is a real command agent that adds a line to weekly.txt.
func weeklyAgent() agent.Runner {
	return agent.NewCommand(agent.CommandConfig{Argv: []string{"sh", "-c",
		`echo bumped >> weekly.txt && echo '{"status":"completed","summary":"bumped the deps"}'`}})
}

// next is the one task that follows id (the test fails on none or more).
func next(t *testing.T, s *store.Store, id string) *task.Task {
	t.Helper()
	tasks, _, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	out := task.Followers(tasks, id)
	if len(out) != 1 {
		t.Fatalf("%d tasks follow %s, want 1 (of %d tasks)", len(out), id, len(tasks))
	}
	return out[0]
}

var monday9 = time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)

func TestWeeklyTaskLandedComesBackNextWeek(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	setClock(s, monday9.Add(5*time.Minute))
	due := monday9
	tk, err := s.Create(&task.Task{Title: "Bump the deps", Every: "1w", NotBefore: &due, Labels: []string{"deps"}})
	if err != nil {
		t.Fatal(err)
	}
	if evs := finishedEvents(runOnce(t, s, weeklyAgent())); len(evs) != 1 || evs[0].Task != tk.ID {
		t.Fatalf("the worker ran %v, want %s once", evs, tk.ID)
	}
	if got := getTask(t, s, tk.ID); got.State != task.Closed {
		t.Fatalf("weekly task is %s", got.State)
	}
	if got := readFile(t, s.Root, "weekly.txt"); got != "bumped\n" {
		t.Fatalf("landed weekly.txt: %q", got)
	}
	n := next(t, s, tk.ID)
	if want := monday9.AddDate(0, 0, 7); !n.NotBefore.Equal(want) || n.State != task.Open || n.Title != tk.Title ||
		n.Every != "1w" || len(n.Labels) != 1 {
		t.Fatalf("next task %+v, want it open for %v", n, want)
	}
}

func TestWorkerAfterThreeMissedWeeksMakesOne(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	start := monday9.AddDate(0, 0, 21).Add(3 * time.Hour) // three Mondays missed; now Monday 12:00
	setClock(s, start)
	due := monday9
	tk, err := s.Create(&task.Task{Title: "Weekly report", Every: "1w", NotBefore: &due})
	if err != nil {
		t.Fatal(err)
	}
	if evs := finishedEvents(runOnce(t, s, weeklyAgent())); len(evs) != 1 {
		t.Fatalf("the worker ran %d times, want once: %v", len(evs), evs)
	}
	tasks, _, err := s.List()
	if err != nil || len(tasks) != 2 {
		t.Fatalf("%d tasks after the worker (%v), want the missed one and its next", len(tasks), err)
	}
	if n := next(t, s, tk.ID); !n.NotBefore.Equal(monday9.AddDate(0, 0, 28)) || n.State != task.Open {
		t.Fatalf("next task for %v (%s), want next Monday 09:00", n.NotBefore, n.State)
	}
}

func TestFutureTaskIsNotTaken(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	set := setClock(s, monday9.Add(-time.Minute))
	at := monday9
	tk, err := s.Create(&task.Task{Title: "Not yet", NotBefore: &at})
	if err != nil {
		t.Fatal(err)
	}
	if evs := finishedEvents(runOnce(t, s, weeklyAgent())); len(evs) != 0 {
		t.Fatalf("the worker took a task before its time: %v", evs)
	}
	if got := getTask(t, s, tk.ID); got.State != task.Open {
		t.Fatalf("future task is %s", got.State)
	}
	set(monday9)
	if evs := finishedEvents(runOnce(t, s, weeklyAgent())); len(evs) != 1 || evs[0].Task != tk.ID {
		t.Fatalf("at its time the worker ran %v", evs)
	}
}

// A running worker takes a scheduled task at its time: the tick here is
// an hour, so only the worker's timer can wake it.
func TestWorkerWakesAtAScheduledTime(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	at := time.Now().Add(2 * time.Second).Truncate(time.Second) // in whole seconds, as bh writes it
	tk, err := s.Create(&task.Task{Title: "Soon", NotBefore: &at})
	if err != nil {
		t.Fatal(err)
	}
	finished := make(chan Event, 1)
	report := func(e Event) {
		if e.Kind == Finished {
			finished <- e
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- Run(ctx, ctx, s, Options{Runner: weeklyAgent(), Tick: time.Hour, Report: report}) }()
	select {
	case e := <-finished:
		if e.Task != tk.ID || e.Outcome != ending.Completed {
			t.Fatalf("finished: %+v", e)
		}
	case err := <-errc:
		t.Fatalf("worker ended: %v", err)
	case <-time.After(fakeapi.Patience(20 * time.Second)):
		t.Fatal("the worker did not wake at the task's time")
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}
