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
)

func TestRefusesDuringMerge(t *testing.T) {
	s := newStore(t)
	writeFile(t, s.Root, ".git/MERGE_HEAD", gitT(t, s.Root, "rev-parse", "HEAD")+"\n")
	err := Run(context.Background(), context.Background(), s, Options{Runner: &fake{}, Once: true})
	if err == nil || !strings.Contains(err.Error(), "merge is in progress") {
		t.Fatalf("got %v", err)
	}
}

// An idle worker wakes on file events alone: the tick is an hour.
func TestIdleWorkerWakesOnNewTaskAndAnswer(t *testing.T) {
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
	go func() { errc <- Run(ctx, ctx, s, Options{Runner: f, Tick: time.Hour}) }()
	time.Sleep(100 * time.Millisecond) // idle
	tk := addTask(t, s, "Arrives later")
	select {
	case <-calls:
	case <-time.After(5 * time.Second):
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
	case <-time.After(5 * time.Second):
		t.Fatal("idle worker did not pick up the answer")
	}
	waitState(t, s, tk.ID, task.Closed)
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

func waitState(t testing.TB, s *task.Store, id string, want task.State) {
	t.Helper()
	for range 500 {
		if tk, err := s.Get(id); err == nil && tk.State == want {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never reached %s", id, want)
}

func TestUnparkConflictWaitsForAHuman(t *testing.T) {
	s := newStore(t)
	tk := addTask(t, s, "Edit README")
	ask := agent.Result{Status: agent.StatusNeedsInput, Summary: "?", Question: "Tone?"}
	f := &fake{steps: []stepFn{step(map[string]string{"README.md": "# agent's title\n"}, ask)}}
	runOnce(t, s, f)
	writeFile(t, s.Root, "README.md", "# the user's title\n")
	gitT(t, s.Root, "commit", "-q", "-am", "user edits README")
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"formal"}}}, ""); err != nil {
		t.Fatal(err)
	}
	evs := runOnce(t, s, f)
	if len(f.requests()) != 1 {
		t.Fatal("the agent ran despite the conflict")
	}
	got := getTask(t, s, tk.ID)
	if got.State != task.AwaitingInput || !strings.Contains(got.Question, "README.md") || len(got.Pending()) != 1 {
		t.Fatalf("conflicted task: state %s question %q", got.State, got.Question)
	}
	if !refExists(s.Root, ParkRef(tk.ID)) || readFile(t, s.Root, "README.md") != "# the user's title\n" {
		t.Fatal("conflict lost the parked work or touched the user's file")
	}
	if fin := finishedEvents(evs); len(fin) != 1 || fin[0].Outcome != Conflict {
		t.Fatalf("finished: %+v", fin)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "runs", tk.ID, "baseline.json")); !os.IsNotExist(err) {
		t.Fatal("baseline left behind")
	}
}

func TestMergeBegunDuringRunTouchesNothing(t *testing.T) {
	s := newStore(t)
	tk := addTask(t, s, "Overlaps a merge")
	mergeHead := filepath.Join(s.Root, ".git", "MERGE_HEAD")
	head := gitT(t, s.Root, "rev-parse", "HEAD")
	merging := func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		os.WriteFile(mergeHead, []byte(head+"\n"), 0o644) // the user starts a merge meanwhile
		return step(map[string]string{"work.txt": "work\n"}, done("done"))(ctx, req)
	}
	f := &fake{steps: []stepFn{merging, step(nil, done("verified"))}}
	ctx := context.Background()
	err := Run(ctx, ctx, s, Options{Runner: f, Once: true})
	if err == nil || !strings.Contains(err.Error(), "merge began") {
		t.Fatalf("got %v", err)
	}
	if gitT(t, s.Root, "rev-parse", "HEAD") != head || !exists(s.Root, "work.txt") || refExists(s.Root, ParkRef(tk.ID)) {
		t.Fatal("bh touched the tree during the merge")
	}
	os.Remove(mergeHead)
	runOnce(t, s, f)
	if r := f.requests(); !r[1].Resume {
		t.Fatal("not resumed after the merge")
	}
	if c := committed(t, s.Root, "HEAD"); len(c) != 2 || c[1] != "work.txt" {
		t.Fatalf("commit after the merge: %v", c)
	}
}
