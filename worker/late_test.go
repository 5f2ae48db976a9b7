package worker

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

// A choice with a default, so that onTimeout: default has one to take.
var dbQuestion = agent.Result{Status: agent.StatusNeedsInput, Summary: "?", Questions: []agent.Question{
	{Question: "Which database?", Header: "DB", Type: agent.QuestionChoice, Default: "Postgres",
		Options: []agent.Option{{Label: "Postgres"}, {Label: "SQLite"}}}}}

// A late answer is taken under every onTimeout policy while the task has
// not moved on: it reaches the resumed agent as given (under default it
// replaces the default). Once the task ran again, it is refused, in words.
func TestLateAnswerUnderEveryPolicy(t *testing.T) {
	t.Parallel()
	for _, policy := range task.OnTimeouts {
		t.Run(policy, func(t *testing.T) {
			s := newStore(t)
			tk := askAtT0(t, s, dbQuestion, func(tk *task.Task) { tk.HumanTimeout, tk.OnTimeout = "1h", policy })
			checkAt(t, s, 2*time.Hour, tk.ID)
			s.Now = at(3 * time.Hour)
			got, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"SQLite"}, Comment: "one file is enough"}}, "alice")
			if err != nil {
				t.Fatalf("the late answer was refused: %v", err)
			}
			q := got.Questions[0]
			if got.State != task.Open || q.Status != task.QuestionAnswered || q.Answer[0] != "SQLite" ||
				q.Comment != "one file is enough" {
				t.Fatalf("after the late answer: %s %+v", got.State, q)
			}
			f := &fake{steps: []stepFn{step(nil, done("went with SQLite"))}}
			runWith(t, s, Options{Runner: f, Now: at(4 * time.Hour)})
			p := f.requests()[0].Prompt
			if !strings.Contains(p, "SQLite") || !strings.Contains(p, "one file is enough") || strings.Contains(p, "Answer: Postgres") {
				t.Fatalf("the resumed agent was not given the late answer:\n%s", p)
			}
		})
	}
}

// Once the task ran again since its question timed out, a late answer is
// not taken, and the human is told why.
func TestLateAnswerAfterARunIsRefused(t *testing.T) {
	t.Parallel()
	for _, policy := range []string{task.OnTimeoutFail, task.OnTimeoutDefer, task.OnTimeoutDefault} {
		t.Run(policy, func(t *testing.T) {
			s := newStore(t)
			tk := askAtT0(t, s, dbQuestion, func(tk *task.Task) { tk.HumanTimeout, tk.OnTimeout = "1h", policy })
			checkAt(t, s, 2*time.Hour, tk.ID)
			if policy != task.OnTimeoutDefault { // the human runs it again without answering
				update(t, s, tk.ID, func(tk *task.Task) { tk.SetState(task.Open, t0.Add(2*time.Hour), "human", "reopened") })
			}
			runWith(t, s, Options{Runner: &fake{steps: []stepFn{step(nil, done("went on"))}}, Now: at(3 * time.Hour)})
			before := getTask(t, s, tk.ID)
			_, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"SQLite"}}}, "alice")
			var le *task.LateError
			if !errors.As(err, &le) || !strings.Contains(err.Error(), tk.ID+" ran again since (run 2 at 2030-01-02 06:04:05 UTC); your answer was not taken") {
				t.Fatalf("late answer after a run: %v", err)
			}
			if after := getTask(t, s, tk.ID); len(after.History) != len(before.History) || after.State != before.State {
				t.Fatal("a refused late answer changed the task")
			}
		})
	}
}

// Under default, a late answer to one of two defaulted questions replaces
// that default only; the other keeps its default.
func TestLateAnswerReplacesOneDefault(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	two := dbQuestion
	two.Questions = append(append([]agent.Question(nil), dbQuestion.Questions...), agent.Question{
		Question: "Which port?", Type: agent.QuestionFreeform, Default: "8080"})
	tk := askAtT0(t, s, two, func(tk *task.Task) { tk.HumanTimeout, tk.OnTimeout = "1h", task.OnTimeoutDefault })
	checkAt(t, s, 2*time.Hour, tk.ID)
	got, err := Respond(s, tk.ID, []task.Answer{{QuestionID: tk.Questions[1].ID, Values: []string{"9090"}}}, "alice")
	if err != nil {
		t.Fatal(err)
	}
	db, port := got.Questions[0], got.Questions[1]
	if got.State != task.Open || db.Status != task.QuestionAnswered || db.Answer[0] != "Postgres" ||
		port.Status != task.QuestionAnswered || port.Answer[0] != "9090" {
		t.Fatalf("after one late answer: %s %+v", got.State, got.Questions)
	}
	// the same question twice: the human's answer stands
	if _, err := Respond(s, tk.ID, []task.Answer{{QuestionID: port.ID, Values: []string{"1"}}}, "bob"); err == nil {
		t.Fatal("a second late answer replaced the first")
	}
}
