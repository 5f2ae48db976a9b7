package worker

import (
	"slices"

	"context"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
)

func stopTask(t testing.TB, s *store.Store, id string) {
	t.Helper()
	if _, err := s.Update(id, func(tk *task.Task) error { return tk.Stop("the spec changes", time.Now(), "carol") }); err != nil {
		t.Fatal(err)
	}
}

// bh stop on the running task: the worker notices the file change (the
// heartbeat is an hour away), cancels the agent, parks its work and
// leaves the task deferred, as the human set it.
func TestStopCancelsTheRunningAgent(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := addTask(t, s, "Long job")
	running := make(chan struct{})
	cancelled := false
	hang := func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		writeFile(t, req.Dir, "wip.txt", "wip\n")
		close(running)
		select { // a deadline, not a wait: the stop ends it long before
		case <-ctx.Done():
			cancelled = true
		case <-time.After(fakeapi.Patience(10 * time.Second)):
		}
		return nil, &agent.RunError{Reason: "claude was stopped", ExitCode: -1, Err: ctx.Err()}
	}
	f := &fake{steps: []stepFn{hang, step(map[string]string{"rest.txt": "rest\n"}, done("finished"))}}
	errc := make(chan []Event, 1)
	h := newHook(t)
	n, closeN := h.notifier(t)
	go func() { errc <- runWith(t, s, Options{Runner: f, Heartbeat: time.Hour, Notify: n}) }()
	<-running
	stopTask(t, s, tk.ID)
	evs := <-errc
	closeN()
	if names := h.names(tk.ID); !slices.Equal(names, []string{task.EventTaskStopped}) {
		t.Errorf("notifications of the stopped task: %v", names)
	}
	if !cancelled {
		t.Fatal("the agent's context was not cancelled within 10s of the stop")
	}
	got := getTask(t, s, tk.ID)
	if got.State != task.Deferred || got.Lease != nil {
		t.Fatalf("stopped task: state %s lease %+v", got.State, got.Lease)
	}
	if e, ok := lastEvent(got, task.EventRunFinished); !ok || e.Status != string(ending.Stopped) {
		t.Fatalf("run.finished: %+v", e)
	}
	if e, ok := lastEvent(got, task.EventStopped); !ok || e.By != "carol" {
		t.Fatalf("stopped event: %+v", e)
	}
	if !refExists(s.Root, git.ParkRef(tk.ID)) || exists(s.Root, "wip.txt") {
		t.Fatal("the stopped run's work was not parked")
	}
	if fin := finishedEvents(evs); len(fin) != 1 || fin[0].Outcome != ending.Stopped {
		t.Fatalf("finished: %+v", fin)
	}
	// Reopened, it resumes the same session with its work back.
	update(t, s, tk.ID, func(tk *task.Task) { tk.SetState(task.Open, time.Now(), "carol", "reopen") })
	resumesAndCommits(t, s, f, tk.ID)
}

// A result that arrives after a human stopped the task never overrides
// them: nothing is committed or asked, and the work is parked.
func TestResultAfterStopDoesNotClobber(t *testing.T) {
	t.Parallel()
	for _, res := range []agent.Result{
		done("done anyway"),
		{Status: agent.StatusNeedsInput, Summary: "?", Question: "Which?"},
		{Status: agent.StatusFailed, Summary: "gave up"},
	} {
		t.Run(string(res.Status), func(t *testing.T) {
			s := newStore(t)
			tk := addTask(t, s, "Stopped as it ends")
			head := gitT(t, s.Root, "rev-parse", "HEAD")
			late := func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
				writeFile(t, req.Dir, "late.txt", "late\n")
				stopTask(t, s, tk.ID) // the human stops it just as the agent answers
				return &agent.Outcome{Result: res, SessionID: req.SessionID}, nil
			}
			runWith(t, s, Options{Runner: &fake{steps: []stepFn{late}}, Heartbeat: time.Hour})
			got := getTask(t, s, tk.ID)
			if got.State != task.Deferred || got.Lease != nil || len(got.Pending()) != 0 {
				t.Fatalf("task: state %s lease %+v pending %+v", got.State, got.Lease, got.Pending())
			}
			if gitT(t, s.Root, "rev-parse", "HEAD") != head || count(got, task.EventCommit) != 0 {
				t.Fatal("committed after the stop")
			}
			if !refExists(s.Root, git.ParkRef(tk.ID)) || exists(s.Root, "late.txt") {
				t.Fatal("late work not parked")
			}
		})
	}
}
