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
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
)

func noHumans(t testing.TB, s *store.Store, title string) *task.Task {
	t.Helper()
	no := false
	return update(t, s, addTask(t, s, title).ID, func(tk *task.Task) { tk.Human = &no })
}

func TestHumanFalseFailsInsteadOfAsking(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := noHumans(t, s, "Alone")
	h := newHook(t)
	n, closeN := h.notifier(t)
	res := agent.Result{Status: agent.StatusNeedsInput, Summary: "Schema drafted.", Question: "Postgres or SQLite?",
		QuestionContext: "db.go has both drivers."}
	evs := runWith(t, s, Options{Notify: n,
		Runner: &fake{steps: []stepFn{step(map[string]string{"draft.sql": "create table t();\n"}, res)}}})
	closeN()

	got := getTask(t, s, tk.ID)
	if got.State != task.Failed || got.Summary != ending.NoHumanSummary || got.Question != "Postgres or SQLite?" ||
		got.QuestionContext != "db.go has both drivers." {
		t.Fatalf("task: state %s summary %q question %q", got.State, got.Summary, got.Question)
	}
	for _, want := range []string{"Postgres or SQLite?", "db.go has both drivers.", "Schema drafted."} {
		if !strings.Contains(got.Details, want) {
			t.Errorf("details lack %q:\n%s", want, got.Details)
		}
	}
	if len(got.Pending()) != 0 || count(got, task.EventInputRequested) != 0 {
		t.Fatal("a task without humans asked one")
	}
	if !refExists(s.Root, git.ParkRef(tk.ID)) || exists(s.Root, "draft.sql") {
		t.Fatal("partial work not parked")
	}
	if fin := finishedEvents(evs); len(fin) != 1 || fin[0].Outcome != ending.Failed || fin[0].Question != "Postgres or SQLite?" {
		t.Fatalf("finished: %+v", fin)
	}
	if names := h.names(tk.ID); len(names) != 1 || names[0] != task.EventTaskFailed {
		t.Fatalf("notifications: %v", names)
	}
}

func TestHumanFalseWithGateFailsKeepingTheApproval(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := noHumans(t, s, "Gated, alone")
	update(t, s, tk.ID, func(tk *task.Task) { tk.Gate = task.GateApproval })
	head := gitT(t, s.Root, "rev-parse", "HEAD")
	runWith(t, s, Options{Runner: &fake{steps: []stepFn{step(map[string]string{"x.txt": "x\n"}, done("x"))}}})
	got := getTask(t, s, tk.ID)
	if got.State != task.Failed || got.Summary != ending.NoHumanSummary || got.Question != "Approve this change and land it on master?" {
		t.Fatalf("task: state %s summary %q question %q", got.State, got.Summary, got.Question)
	}
	if gitT(t, s.Root, "rev-parse", "HEAD") != head || !refExists(s.Root, git.ParkRef(tk.ID)) {
		t.Fatal("unapproved work committed, or not parked")
	}
}

// A human: false task whose landing git refuses (the user's uncommitted
// edit is in the way) is not failed: it waits on the landing question
// with the cause named, its work kept and the user's edit untouched; once
// the user stashes the edit, the running worker lands it on its tick,
// without running the agent again.
func TestHumanFalseRefusedLandingWaitsThenLands(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := noHumans(t, s, "Edits the README, alone")
	readme := filepath.Join(s.Root, "README.md")
	if err := os.WriteFile(readme, []byte("# mine, not committed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	head := gitT(t, s.Root, "rev-parse", "HEAD")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	f := &fake{steps: []stepFn{step(map[string]string{"README.md": "# the agent's\n"}, done("done"))}}
	go func() { errc <- Run(ctx, ctx, s, Options{Runner: f, Tick: 20 * time.Millisecond}) }()
	waitState(t, s, tk.ID, task.AwaitingInput)
	got := getTask(t, s, tk.ID)
	if len(got.Pending()) != 1 || !strings.Contains(lastNote(got), "landing refused") ||
		!strings.Contains(lastNote(got), "README.md") || !strings.Contains(lastNote(got), "the finished work waits: bh land lands it") {
		t.Fatalf("task: %s %q, pending %v", got.State, lastNote(got), got.Pending())
	}
	if b, _ := os.ReadFile(readme); string(b) != "# mine, not committed\n" || gitT(t, s.Root, "rev-parse", "HEAD") != head {
		t.Fatalf("the user's edit or branch changed: %q", b)
	}
	gitT(t, s.Root, "stash", "-q")
	waitState(t, s, tk.ID, task.Closed)
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if b := gitT(t, s.Root, "show", "HEAD:README.md"); b != "# the agent's" {
		t.Errorf("landed README: %q", b)
	}
	if n := gitT(t, s.Root, "stash", "list"); !strings.Contains(n, "stash@{0}") {
		t.Errorf("the user's stash is gone: %q", n)
	}
	if got := getTask(t, s, tk.ID); count(got, task.EventRunStarted) != 1 {
		t.Errorf("the agent ran %d times, want once", count(got, task.EventRunStarted))
	}
}
