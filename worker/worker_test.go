package worker

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
)

func TestIdleWorkerWakesOnNewTaskAndAnswer(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	calls := make(chan agent.Request, 4)
	ask := agent.Result{Status: agent.StatusNeedsInput, Summary: "?", Question: "Which?"}
	f := &fake{}
	f.steps = []stepFn{
		func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
			calls <- req
			return step(nil, ask)(ctx, req)
		},
		func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
			calls <- req
			return step(nil, done("ok"))(ctx, req)
		},
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	idle := make(chan struct{}, 1)
	report := func(e Event) {
		if e.Kind == Waiting {
			select {
			case idle <- struct{}{}:
			default:
			}
		}
	}
	go func() { errc <- Run(ctx, ctx, s, Options{Runner: f, Tick: time.Hour, Report: report}) }()
	<-idle
	tk := addTask(t, s, "Arrives later")
	select {
	case <-calls:
	case <-time.After(fakeapi.Patience(5 * time.Second)):
		t.Fatal("idle worker did not pick up a new task")
	}
	waitState(t, s, tk.ID, task.AwaitingInput)
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"that one"}}}, ""); err != nil {
		t.Fatal(err)
	}
	select {
	case req := <-calls:
		if !req.Resume {
			t.Fatal("answer did not resume")
		}
	case <-time.After(fakeapi.Patience(5 * time.Second)):
		t.Fatal("idle worker did not pick up the answer")
	}
	waitState(t, s, tk.ID, task.Closed)
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

func waitState(t testing.TB, s *store.Store, id string, want task.State) {
	t.Helper()
	for end := time.Now().Add(fakeapi.Patience(5 * time.Second)); time.Now().Before(end); {
		if tk, err := s.Get(id); err == nil && tk.State == want {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never reached %s", id, want)
}

// A merge the user begins while an agent runs is theirs: the run ends
// normally in its worktree, git will not land during the merge, so the
// human is asked; once the merge is over, bh land lands the work.
func TestMergeBegunDuringRunHoldsTheLanding(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := addTask(t, s, "Overlaps a merge")
	mergeHead := filepath.Join(s.Root, ".git", "MERGE_HEAD")
	head := gitT(t, s.Root, "rev-parse", "HEAD")
	merging := func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		os.WriteFile(mergeHead, []byte(head+"\n"), 0o644) // the user starts a merge meanwhile
		return step(map[string]string{"work.txt": "work\n"}, done("done"))(ctx, req)
	}
	f := &fake{steps: []stepFn{merging}}
	evs := runOnce(t, s, f)
	got := getTask(t, s, tk.ID)
	if fin := finishedEvents(evs); len(fin) != 1 || fin[0].Outcome != ending.Held || got.State != task.AwaitingInput {
		t.Fatalf("finished %+v, task %s", fin, got.State)
	}
	if q := pendingOf(t, got); !ending.IsLandQuestion(&q) {
		t.Fatalf("question %+v, want the landing question", q)
	}
	if gitT(t, s.Root, "rev-parse", "HEAD") != head || exists(s.Root, "work.txt") || !exists(s.Root, ".git/MERGE_HEAD") {
		t.Fatal("bh touched the tree during the merge")
	}
	os.Remove(mergeHead)
	if err := landTask(context.Background(), s, tk.ID, "alice", Options{Runner: f}); err != nil {
		t.Fatal(err)
	}
	if len(f.requests()) != 1 {
		t.Fatal("landing ran the agent again")
	}
	if got := getTask(t, s, tk.ID); got.State != task.Closed {
		t.Fatalf("after bh land: %s", got.State)
	}
	if c := committed(t, s.Root, "HEAD"); len(c) != 2 || c[1] != "work.txt" {
		t.Fatalf("landed commit: %v", c)
	}
}
