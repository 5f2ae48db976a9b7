package attempts

import (
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git"
)

// TestNewAttemptsMixAgentsAndShareTheBudget: attempts take the task's
// agents in turn, keep their work on their branch for the pick, and
// together keep to the task's budget.
func TestNewAttemptsMixAgentsAndShareTheBudget(t *testing.T) {
	tk := &task.Task{ID: "bh-t1", Title: "Port it", Attempts: 3, Agents: []string{"claude", "codex"},
		AgentSettings: &task.AgentSettings{Agent: "claude", Model: "opus"}, Checks: []string{"go test ./..."}}
	var agents []string
	spend := 0.0
	for k := 1; k <= 3; k++ {
		a := New(tk, k, 6)
		agents = append(agents, a.AgentSettings.Agent)
		spend += a.Budget
		if a.Parent != tk.ID || a.Attempt != k || a.Land != task.LandBranch || a.Gate != task.GateNone ||
			a.Title != task.AttemptTitle(k, 3, "Port it") || len(a.Checks) != 1 || a.Tried() {
			t.Errorf("attempt %d: %+v", k, a)
		}
	}
	if strings.Join(agents, " ") != "claude codex claude" || spend != 6 {
		t.Errorf("agents %v, budgets adding to %v: want claude codex claude, 6", agents, spend)
	}
	if a := New(tk, 2, 6); a.AgentSettings.Model != "" {
		t.Errorf("codex's attempt took claude's model %q", a.AgentSettings.Model)
	}
	if a := New(tk, 1, 6); a.AgentSettings.Model != "opus" {
		t.Errorf("claude's attempt lost the task's model: %+v", a.AgentSettings)
	}
}

// TestPickAsksOnceWithEveryAttemptSideBySide: one choice among the
// attempts and none, their diffstat, checks, cost and time in one line
// each; the answer is read back as the pick or as none with feedback, and
// is acted on once.
func TestPickAsksOnceWithEveryAttemptSideBySide(t *testing.T) {
	rows := []Row{
		{K: 1, ID: "bh-a1", Agent: "claude", Summary: "did it", Files: []git.FileStat{{Path: "a.go", Added: 3, Removed: 1}},
			Checks: "passed", CostUSD: 0.5, Took: 90 * time.Second},
		{K: 2, ID: "bh-a2", Agent: "codex", Checks: "failed: go vet", CostUSD: 0.25},
	}
	q, context := Ask(rows)
	if !IsPick(&q) || len(q.Options) != 3 || q.Options[2].Label != None {
		t.Fatalf("pick %+v", q)
	}
	if want := "attempt 1: 1 files +3 -1, checks passed, $0.50, 1m30s"; q.Options[0].Description != want {
		t.Errorf("option 1 reads %q, want %q", q.Options[0].Description, want)
	}
	for _, want := range []string{"attempt 1 (claude, bh-a1)", "a.go | +3 -1", "checks failed: go vet", "(no summary)"} {
		if !strings.Contains(context, want) {
			t.Errorf("no %q in the context:\n%s", want, context)
		}
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	answered := func(answer, comment string) *task.Task {
		tk := &task.Task{ID: "bh-t1", Attempts: 2, State: task.AwaitingInput}
		q := q
		q.ID, q.Status, q.Answer, q.Comment = "q1", task.QuestionAnswered, []string{answer}, comment
		tk.Questions = []task.Question{q}
		tk.Record(at, task.Event{Kind: task.EventInputReceived, QuestionID: "q1"})
		return tk
	}
	if k, _, q := Picked(answered("2", "")); q == nil || k != 2 {
		t.Errorf("picked %d (%v), want 2", k, q)
	}
	tk := answered(None, "keep the API")
	if k, feedback, q := Picked(tk); q == nil || k != 0 || feedback != "keep the API" {
		t.Errorf("picked %d with %q (%v), want none with the feedback", k, feedback, q)
	}
	if !strings.Contains(Next(tk), "every attempt") {
		t.Errorf("next: %q", Next(tk))
	}
	tk.Record(at, task.Event{Kind: task.EventFeedback, Text: "keep the API"})
	if _, _, q := Picked(tk); q != nil || Next(tk) != "" {
		t.Errorf("the answer acted on is picked again: %v", q)
	}
}
