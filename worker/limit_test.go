package worker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/worker/act"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

// limitClock is a worker's clock that a test moves on.
type limitClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *limitClock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *limitClock) set(t time.Time) { c.mu.Lock(); c.now = t; c.mu.Unlock() }

// limitRunner cuts its first run short at the five-hour limit, which
// resets at reset, after writing half.txt; later runs complete.
type limitRunner struct {
	mu    sync.Mutex
	reset time.Time
	clock *limitClock
	reqs  []agent.Request
	at    []time.Time // the clock at each run's start
	kept  []bool      // whether half.txt was still there
}

func (r *limitRunner) Run(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
	r.mu.Lock()
	r.reqs, r.at = append(r.reqs, req), append(r.at, r.clock.Now())
	_, err := os.Stat(filepath.Join(req.Dir, "half.txt"))
	r.kept = append(r.kept, err == nil)
	n := len(r.reqs)
	r.mu.Unlock()
	if n > 1 {
		return &agent.Outcome{Result: done("finished"), SessionID: req.SessionID}, nil
	}
	if err := os.WriteFile(filepath.Join(req.Dir, "half.txt"), []byte("half\n"), 0o644); err != nil {
		return nil, err
	}
	l := agent.Limit{Status: agent.LimitRejected, ResetsAt: r.reset, Window: "five_hour"}
	return nil, &agent.RunError{Reason: "Claude AI usage limit reached", Outage: agent.OutageLimit, ExitCode: 1, Limit: &l}
}

func (r *limitRunner) runs() []agent.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]agent.Request(nil), r.reqs...)
}

// runLimited runs a worker on s with opt until it returns (Once) or
// report cancels it (stop); it returns the events.
func runLimited(t *testing.T, s *store.Store, opt Options, report func(e Event, stop func())) []Event {
	t.Helper()
	var mu sync.Mutex
	var evs []Event
	ctx, cancel := context.WithTimeout(context.Background(), fakeapi.Patience(time.Minute))
	defer cancel()
	opt.Tick = 5 * time.Millisecond
	opt.Report = func(e Event) {
		mu.Lock()
		evs = append(evs, e)
		mu.Unlock()
		if report != nil {
			report(e, cancel)
		}
	}
	if err := Run(ctx, ctx, s, opt); err != nil {
		t.Fatalf("worker: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	return evs
}

func pausedBy(e Event) bool {
	return e.Kind == Paused && strings.Contains(e.Summary, "five-hour usage limit")
}

// A run cut short by the five-hour limit: no backoff, the pause lasts to
// the reset the CLI gave, the history says so, and after the reset the
// same session resumes with the partial work still in its worktree.
func TestUsageLimitPausesUntilItsResetAndResumesTheSession(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := addTask(t, s, "Hit the limit")
	start := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	c := &limitClock{now: start}
	r := &limitRunner{reset: start.Add(time.Hour), clock: c}
	var held Event
	h := newHook(t)
	n, closeN := h.notifier(t)
	evs := runLimited(t, s, Options{Runner: r, Now: c.Now, Once: true, Notify: n}, func(e Event, _ func()) {
		if pausedBy(e) && held.Kind == "" {
			held = e
			if n := len(r.runs()); n != 1 {
				t.Errorf("%d runs before the reset", n)
			}
			c.set(r.reset.Add(time.Second)) // the window resets
		}
	})
	closeN()
	if _, ok := h.find(tk.ID, task.EventLimitPaused); !ok {
		t.Errorf("no limit.paused notification: %v", h.names(tk.ID))
	}
	if e, ok := h.find("", task.EventLimitResumed); !ok || !strings.Contains(e.Summary, "five-hour usage limit is over") {
		t.Errorf("limit.resumed: %+v", e)
	}
	if held.Elapsed != time.Hour || !strings.Contains(held.Summary, "until") {
		t.Fatalf("the pause: %+v", held)
	}
	for _, e := range evs {
		if e.Kind == Paused && strings.Contains(e.Summary, "new runs wait") {
			t.Errorf("a backoff although the reset was known: %s", e.Summary)
		}
	}
	reqs := r.runs()
	if len(reqs) != 2 || !reqs[1].Resume || reqs[1].SessionID != reqs[0].SessionID || !r.kept[1] {
		t.Fatalf("%d runs; second %+v, partial work kept %v", len(reqs), reqs[len(reqs)-1], r.kept)
	}
	if r.at[1].Before(r.reset) {
		t.Errorf("the second run started at %s, before the reset %s", r.at[1], r.reset)
	}
	got := getTask(t, s, tk.ID)
	if got.State != task.Closed || count(got, task.EventLimitPaused) != 1 {
		t.Fatalf("%s, %d limit.paused events", got.State, count(got, task.EventLimitPaused))
	}
	for _, h := range got.History {
		if h.Kind == task.EventLimitPaused && !strings.Contains(h.Text, "five-hour usage limit; resets 2026-11-28T11:00:00Z") {
			t.Errorf("limit.paused says %q", h.Text)
		}
	}
}

// One machine meets the limit; a second clone sharing the remote starts
// no run before the reset, without trying, and runs after it.
func TestUsageLimitHoldsEveryCloneOfTheAccount(t *testing.T) {
	t.Parallel()
	a := newStore(t)
	bare := withRemote(t, a)
	addTask(t, a, "Hit the limit on A")
	start := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	c := &limitClock{now: start}
	r := &limitRunner{reset: start.Add(time.Hour), clock: c}
	runLimited(t, a, Options{Runner: r, Now: c.Now}, func(e Event, stop func()) {
		if pausedBy(e) {
			stop()
		}
	})
	if got := gitT(t, bare, "for-each-ref", "refs/bh/limits/"); got == "" {
		t.Fatal("the hold is not on the remote")
	}

	dir := t.TempDir()
	gitT(t, dir, "clone", "-q", bare, ".")
	b, err := store.Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	b.Config.Remote = "origin"
	tk := addTask(t, b, "Wait on B")
	other := &limitRunner{reset: r.reset, clock: c}
	var told string
	runLimited(t, b, Options{Runner: other, Now: c.Now}, func(e Event, stop func()) {
		if pausedBy(e) {
			told = e.Summary
			stop()
		}
	})
	if n := len(other.runs()); n != 0 || !strings.Contains(told, "until") {
		t.Fatalf("clone B ran %d times before the reset; told %q", n, told)
	}
	c.set(r.reset.Add(time.Second))
	other.reqs = []agent.Request{{}} // its runs complete
	runLimited(t, b, Options{Runner: other, Now: c.Now, Once: true}, nil)
	if got := getTask(t, b, tk.ID); got.State != task.Closed { // (and A's task, if a sync brought it)
		t.Fatalf("after the reset: %s after %d runs", got.State, len(other.runs())-1)
	}
}

// With limits.autoResume false the queue stays paused past the reset
// until a human resumes it (bh worker --resume, the board, the web).
func TestUsageLimitWithoutAutoResumeWaitsForResume(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	off := false
	s.Config.Limits.AutoResume = &off
	tk := addTask(t, s, "Hit the limit, then wait for me")
	start := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	c := &limitClock{now: start}
	r := &limitRunner{reset: start.Add(time.Hour), clock: c}
	resumed := false
	runLimited(t, s, Options{Runner: r, Now: c.Now, Once: true}, func(e Event, _ func()) {
		switch {
		case pausedBy(e) && strings.Contains(e.Summary, "until"):
			c.set(r.reset.Add(time.Minute))
		case pausedBy(e) && strings.Contains(e.Summary, "--resume"):
			if n := len(r.runs()); n != 1 {
				t.Errorf("%d runs past the reset before --resume", n)
			}
			resumed = true
			if err := act.Resume(s); err != nil {
				t.Error(err)
			}
		}
	})
	if got := getTask(t, s, tk.ID); !resumed || got.State != task.Closed || len(r.runs()) != 2 {
		t.Fatalf("resumed %v; %s after %d runs", resumed, got.State, len(r.runs()))
	}
}

// While the limit warns (allowed_warning), runs go one at a time: the
// three tasks the first one held back do not run at once.
func TestUsageLimitWarningRunsOneAtATime(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	first := addTask(t, s, "First")
	for _, title := range []string{"Two", "Three", "Four"} {
		addTask(t, s, title, first.ID)
	}
	var mu sync.Mutex
	running, most := 0, 0
	r := agent.RunnerFunc(func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		req.Limit(agent.Limit{Status: agent.LimitWarning, Window: "five_hour"})
		mu.Lock()
		running++
		most = max(most, running)
		mu.Unlock()
		defer func() { mu.Lock(); running--; mu.Unlock() }()
		return &agent.Outcome{Result: done("ok")}, nil
	})
	c := &limitClock{now: time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)}
	ctx := context.Background()
	opt := Options{Runner: r, Now: c.Now, Once: true, Jobs: 3}
	if err := Run(ctx, ctx, s, opt); err != nil {
		t.Fatal(err)
	}
	if most != 1 {
		t.Errorf("%d runs at once under the warning", most)
	}
}
