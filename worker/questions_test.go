package worker

import (
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

func TestTypedQuestionsKeepEveryField(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := addTask(t, s, "Decide")
	res := agent.Result{Status: agent.StatusNeedsInput, Summary: "Two decisions.", QuestionContext: "see db.go",
		Questions: []agent.Question{
			{Question: "Which databases?", Header: "DB", Type: agent.QuestionChoice, MultiSelect: true, Default: "Postgres",
				Options: []agent.Option{{Label: "Postgres", Description: "server"}, {Label: "SQLite", Description: "file"}}},
			{Question: "Ship it?", Header: "Release", Type: agent.QuestionApproval, Default: "no"},
		}}
	runWith(t, s, Options{Runner: &fake{steps: []stepFn{step(nil, res)}}, Now: at(0)})
	got := getTask(t, s, tk.ID)
	if len(got.Questions) != 2 {
		t.Fatalf("questions: %+v", got.Questions)
	}
	db, ship := got.Questions[0], got.Questions[1]
	wantOpts := []task.Option{{Label: "Postgres", Description: "server"}, {Label: "SQLite", Description: "file"}}
	if db.Header != "DB" || db.Type != task.ChoiceQuestion || !db.MultiSelect || db.Default != "Postgres" ||
		!slices.Equal(db.Options, wantOpts) || db.Context != "see db.go" || db.Status != task.QuestionPending {
		t.Errorf("choice question: %+v", db)
	}
	if ship.Header != "Release" || ship.Type != task.ApprovalQuestion || ship.Default != "no" || ship.Gate {
		t.Errorf("approval question: %+v", ship)
	}
	for _, q := range got.Questions {
		if q.ID == "" || !q.AskedAt.Equal(t0) || q.ExpiresAt == nil || !q.ExpiresAt.Equal(t0.Add(task.DefaultHumanTimeout)) {
			t.Errorf("question %q: id %q asked %v expires %v", q.Question, q.ID, q.AskedAt, q.ExpiresAt)
		}
	}
	if db.ID == ship.ID || count(got, task.EventInputRequested) != 2 {
		t.Error("questions need their own ids and events")
	}
}

// The resume prompt carries every round: all questions asked so far with
// their answers and comments, not only the latest.
func TestResumePromptListsEveryRound(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := addTask(t, s, "Two rounds")
	round1 := agent.Result{Status: agent.StatusNeedsInput, Summary: "?", Questions: []agent.Question{
		{Question: "Which cloud?", Header: "Cloud", Type: agent.QuestionChoice,
			Options: []agent.Option{{Label: "AWS"}, {Label: "GCP"}}}}}
	round2 := agent.Result{Status: agent.StatusNeedsInput, Summary: "?", Question: "Which region?"}
	f := &fake{steps: []stepFn{step(nil, round1), step(nil, round2), step(nil, done("deployed"))}}
	runWith(t, s, Options{Runner: f})
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"other"}, Comment: "Hetzner"}}, ""); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Runner: f})
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"Falkenstein"}}}, ""); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Runner: f})
	p := f.requests()[2].Prompt
	for _, want := range []string{"Question 1 (Cloud)", "Which cloud?", "Answer: other: Hetzner",
		"Question 2", "Which region?", "Answer: Falkenstein"} {
		if !strings.Contains(p, want) {
			t.Errorf("third prompt lacks %q:\n%s", want, p)
		}
	}
	if getTask(t, s, tk.ID).State != task.Closed {
		t.Fatal("not closed")
	}
}
