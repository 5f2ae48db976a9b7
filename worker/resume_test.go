package worker

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/taskprompt"
)

func TestNeedsInputParksThenResumesTheSameSession(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	dir := s.Root
	ask := addTask(t, s, "Pick a database")
	ask, _ = s.Update(ask.ID, func(tk *task.Task) error { tk.Priority = "P1"; return nil })
	other := addTask(t, s, "Other work")
	question := agent.Result{Status: agent.StatusNeedsInput, Summary: "Schema drafted.",
		Question: "Postgres or SQLite?", QuestionContext: "db.go has both drivers stubbed."}
	question.Questions = []agent.Question{{Question: "Postgres or SQLite?", Type: agent.QuestionFreeform}}

	var sawRestored bool
	f := &fake{steps: []stepFn{
		step(map[string]string{"db.go": "package db // draft\n", "schema.sql": "create table t();\n"}, question),
		step(map[string]string{"other.go": "package other\n"}, done("Other done.")),
		func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
			sawRestored = exists(req.Dir, "db.go") && readFile(t, req.Dir, "db.go") == "package db // draft\n"
			return step(map[string]string{"db_test.go": "package db\n"}, done("Chose Postgres."))(ctx, req)
		},
	}}
	evs := runOnce(t, s, f)

	// Round one: parked, out of the tree, out of the other task's commit.
	parked := getTask(t, s, ask.ID)
	if parked.State != task.AwaitingInput || parked.Question != "Postgres or SQLite?" ||
		parked.QuestionContext != "db.go has both drivers stubbed." || parked.SessionID == "" {
		t.Fatalf("parked task: %+v", parked)
	}
	if len(parked.Questions) != 1 || parked.Questions[0].Status != task.QuestionPending || parked.Questions[0].ID == "" {
		t.Fatalf("questions: %+v", parked.Questions)
	}
	if e, ok := lastEvent(parked, task.EventInputRequested); !ok || e.QuestionID != parked.Questions[0].ID {
		t.Fatalf("input.requested: %+v", e)
	}
	if !refExists(dir, git.ParkRef(ask.ID)) || exists(dir, "db.go") || exists(dir, "schema.sql") {
		t.Fatal("work not parked out of the tree")
	}
	if got, want := committed(t, dir, "HEAD"), []string{".bh/tasks/" + other.ID + ".yaml", "other.go"}; !slices.Equal(got, want) {
		t.Fatalf("other task's commit holds %v, want %v", got, want)
	}
	fin := finishedEvents(evs)
	if len(fin) != 2 || fin[0].Outcome != ending.NeedsInput || fin[0].Question != "Postgres or SQLite?" {
		t.Fatalf("finished: %+v", fin)
	}

	// The answer, then round two in the same session.
	if _, err := Respond(s, ask.ID, []task.Answer{{Values: []string{"Postgres, for the JSON columns"}}}, "alice"); err != nil {
		t.Fatal(err)
	}
	runOnce(t, s, f)
	reqs := f.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d agent runs, want 3", len(reqs))
	}
	first, again := reqs[0], reqs[2]
	if first.Resume || !again.Resume || again.SessionID != first.SessionID || again.SessionID != parked.SessionID {
		t.Fatalf("resume: first %+v, again %+v", first, again)
	}
	for _, w := range []string{"Postgres or SQLite?", "Postgres, for the JSON columns"} {
		if !strings.Contains(again.Prompt, w) {
			t.Errorf("resume prompt lacks %q:\n%s", w, again.Prompt)
		}
	}
	if !sawRestored {
		t.Error("the parked draft was not back in the tree when the agent resumed")
	}
	want := []string{".bh/tasks/" + ask.ID + ".yaml", "db.go", "db_test.go", "schema.sql"}
	if got := committed(t, dir, "HEAD"); !slices.Equal(got, want) {
		t.Fatalf("resumed commit holds %v, want %v", got, want)
	}
	if refExists(dir, git.ParkRef(ask.ID)) {
		t.Error("parked ref left behind after completion")
	}
	closed := getTask(t, s, ask.ID)
	if closed.State != task.Closed || closed.Questions[0].Status != task.QuestionAnswered {
		t.Fatalf("closed task: %+v", closed)
	}
}

func TestRespondAnswersTypedQuestionsOneByOne(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := addTask(t, s, "Typed questions")
	res := agent.Result{Status: agent.StatusNeedsInput, Summary: "Two decisions.", Questions: []agent.Question{
		{Question: "Which port?", Type: agent.QuestionFreeform},
		{Question: "Ship it?", Header: "Release", Type: agent.QuestionApproval},
	}}
	runOnce(t, s, &fake{steps: []stepFn{step(nil, res)}})
	got := getTask(t, s, tk.ID)
	if len(got.Questions) != 2 || got.Questions[1].Type != agent.QuestionApproval || len(got.Pending()) != 2 {
		t.Fatalf("questions: %+v", got.Questions)
	}
	q1, q2 := got.Questions[0].ID, got.Questions[1].ID
	if q1 == q2 {
		t.Fatal("two questions share an id")
	}
	if _, err := Respond(s, tk.ID, []task.Answer{{QuestionID: q2, Values: []string{"maybe"}}}, ""); err == nil {
		t.Fatal("an approval answered with maybe was accepted")
	}
	got, err := Respond(s, tk.ID, []task.Answer{{QuestionID: q1, Values: []string{"8080"}}}, "")
	if err != nil || got.State != task.AwaitingInput || len(got.Pending()) != 1 {
		t.Fatalf("after one of two answers: %v, %+v", err, got)
	}
	if got, err = Respond(s, tk.ID, []task.Answer{{QuestionID: q2, Values: []string{"yes"}}}, ""); err != nil {
		t.Fatal(err)
	}
	if got.State != task.Open {
		t.Fatalf("answered task is %s", got.State)
	}
	p, err := taskprompt.Prompt(s, got, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Which port?", "Answer: 8080", "Question 2 (Release)", "Ship it?", "Answer: yes"} {
		if !strings.Contains(p, w) {
			t.Errorf("resume prompt lacks %q:\n%s", w, p)
		}
	}
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"again"}}}, ""); err == nil {
		t.Fatal("answered an open task")
	}
}

func TestPromptCarriesParentAndDependencies(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	parent := addTask(t, s, "Auth epic")
	dep := addTask(t, s, "Users table")
	s.Update(dep.ID, func(tk *task.Task) error {
		tk.Summary = "added the users table"
		return tk.SetState(task.Closed, now(s), "test", "")
	})
	tk, _ := s.Create(&task.Task{Title: "Login", Description: "Use OAuth.", Parent: parent.ID, DependsOn: []string{dep.ID}})
	p, err := taskprompt.Prompt(s, tk, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Login", "Use OAuth.", parent.ID + ": Auth epic", fmt.Sprintf("%s: Users table — added the users table", dep.ID)} {
		if !strings.Contains(p, w) {
			t.Errorf("prompt lacks %q:\n%s", w, p)
		}
	}
}
