package worker

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/notify"
)

func noHumans(t testing.TB, s *store.Store, title string) *task.Task {
	t.Helper()
	no := false
	return update(t, s, addTask(t, s, title).ID, func(tk *task.Task) { tk.Human = &no })
}

func TestHumanFalseFailsInsteadOfAsking(t *testing.T) {
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
	if got.State != task.Failed || got.Summary != NoHumanSummary || got.Question != "Postgres or SQLite?" ||
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
	if !refExists(s.Root, ParkRef(tk.ID)) || exists(s.Root, "draft.sql") {
		t.Fatal("partial work not parked")
	}
	if fin := finishedEvents(evs); len(fin) != 1 || fin[0].Outcome != Failed || fin[0].Question != "Postgres or SQLite?" {
		t.Fatalf("finished: %+v", fin)
	}
	if names := h.names(tk.ID); len(names) != 1 || names[0] != notify.EventTaskFailed {
		t.Fatalf("notifications: %v", names)
	}
}

func TestHumanFalseWithGateFailsKeepingTheApproval(t *testing.T) {
	s := newStore(t)
	tk := noHumans(t, s, "Gated, alone")
	update(t, s, tk.ID, func(tk *task.Task) { tk.Gate = task.GateApproval })
	head := gitT(t, s.Root, "rev-parse", "HEAD")
	runWith(t, s, Options{Runner: &fake{steps: []stepFn{step(map[string]string{"x.txt": "x\n"}, done("x"))}}})
	got := getTask(t, s, tk.ID)
	if got.State != task.Failed || got.Summary != NoHumanSummary || got.Question != "Approve and commit "+tk.ID+"?" {
		t.Fatalf("task: state %s summary %q question %q", got.State, got.Summary, got.Question)
	}
	if gitT(t, s.Root, "rev-parse", "HEAD") != head || !refExists(s.Root, ParkRef(tk.ID)) {
		t.Fatal("unapproved work committed, or not parked")
	}
}
