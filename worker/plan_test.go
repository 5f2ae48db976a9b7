package worker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

// A planning run that changes a file all the same (a command agent that
// ignores BH_PHASE) is refused: the task fails saying which files, and
// its changes are thrown away, not landed.
func TestPlanningRunThatWritesIsRefused(t *testing.T) {
	s := newStore(t)
	yes := true
	tk, err := s.Create(&task.Task{Title: "Plan the cache", Plan: &yes})
	if err != nil {
		t.Fatal(err)
	}
	f := &fake{steps: []stepFn{step(map[string]string{"early.txt": "too soon\n"},
		agent.Result{Status: agent.StatusCompleted, Summary: "a plan", Details: "1. cache"})}}
	runOnce(t, s, f)
	if reqs := f.requests(); len(reqs) != 1 || !reqs[0].ReadOnly || !strings.Contains(reqs[0].Prompt, "This is a planning run") {
		t.Fatalf("the planning run's request: %+v", reqs)
	}
	got := getTask(t, s, tk.ID)
	if got.State != task.Failed || !strings.Contains(got.Summary, "refused: the planning run changed early.txt") {
		t.Errorf("%s: %q", got.State, got.Summary)
	}
	if _, ok := lastEvent(got, task.EventRollback); !ok {
		t.Errorf("no rollback recorded: %+v", got.History)
	}
	if _, err := os.Stat(filepath.Join(s.Root, "early.txt")); err == nil {
		t.Errorf("the planning run's file landed")
	}
}

// A planning run that changes nothing ends with its plan waiting on a
// human; a no with feedback resumes it planning, read-only, with the
// feedback; a yes with an edited plan resumes the same session, free to
// write, told to carry out the edited plan; its work lands.
func TestPlanApprovedAfterFeedback(t *testing.T) {
	s := newStore(t)
	yes := true
	tk, err := s.Create(&task.Task{Title: "Plan the cache", Plan: &yes})
	if err != nil {
		t.Fatal(err)
	}
	plan := agent.Result{Status: agent.StatusCompleted, Summary: "a plan", Details: "1. cache it"}
	f := &fake{steps: []stepFn{step(nil, plan), step(nil, plan),
		step(map[string]string{"cache.go": "package cache\n"}, done("cached"))}}
	runOnce(t, s, f)
	q := planQuestion(t, getTask(t, s, tk.ID))
	if _, err := Respond(s, tk.ID, []task.Answer{{QuestionID: q.ID, Values: []string{"no"}, Comment: "cache for an hour"}}, "user"); err != nil {
		t.Fatal(err)
	}
	runOnce(t, s, f)
	q = planQuestion(t, getTask(t, s, tk.ID))
	if _, err := Respond(s, tk.ID, []task.Answer{{QuestionID: q.ID, Values: []string{"yes"},
		Comment: "1. cache it for an hour"}}, "user"); err != nil {
		t.Fatal(err)
	}
	runOnce(t, s, f)

	reqs := f.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d runs, want 3", len(reqs))
	}
	if !reqs[1].ReadOnly || !reqs[1].Resume || !strings.Contains(reqs[1].Prompt, "cache for an hour") ||
		!strings.Contains(reqs[1].Prompt, "This is a planning run") {
		t.Errorf("the run after the feedback: read-only %v, resume %v, prompt:\n%s", reqs[1].ReadOnly, reqs[1].Resume, reqs[1].Prompt)
	}
	if reqs[2].ReadOnly || !reqs[2].Resume || reqs[2].SessionID != reqs[0].SessionID ||
		!strings.Contains(reqs[2].Prompt, "1. cache it for an hour") || !strings.Contains(reqs[2].Prompt, "A human edited your plan") {
		t.Errorf("the implementing run: read-only %v, resume %v, session %s (planned in %s), prompt:\n%s",
			reqs[2].ReadOnly, reqs[2].Resume, reqs[2].SessionID, reqs[0].SessionID, reqs[2].Prompt)
	}
	if got := getTask(t, s, tk.ID); got.State != task.Closed {
		t.Errorf("%s: %s", got.State, got.Summary)
	}
	if _, err := os.Stat(filepath.Join(s.Root, "cache.go")); err != nil {
		t.Errorf("the work did not land: %v", err)
	}
}

// planQuestion is t's pending plan question.
func planQuestion(t *testing.T, tk *task.Task) task.Question {
	t.Helper()
	open := tk.OpenQuestions()
	if tk.State != task.AwaitingInput || len(open) != 1 || open[0].Plan == "" || !open[0].Planning {
		t.Fatalf("%s waits on %+v, want its plan", tk.State, open)
	}
	return open[0]
}
