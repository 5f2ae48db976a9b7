package worker

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// The real Claude Code CLI, whose model calls AskUserQuestion mid-run: the
// call reaches bh's MCP server as a permission prompt, the typed question
// lands on the task, and the run parks as awaiting_input although the
// model then claims to be done. The choice is answered and the same
// session resumes with it.
func TestClaudeAskUserQuestionParksAndResumes(t *testing.T) {
	t.Parallel()
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		switch p, res := req.Prompt(), req.ToolResults(); {
		case strings.Contains(p, "Answer: Postgres"):
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "chose Postgres"}))
		case len(res) == 0:
			return fakeapi.Reply(fakeapi.ToolUse("AskUserQuestion", map[string]any{"questions": []any{map[string]any{
				"question": "Which database?", "header": "Database", "multiSelect": false,
				"options": []any{map[string]any{"label": "Postgres", "description": "the usual"},
					map[string]any{"label": "SQLite", "description": "one file"}}}}}))
		}
		// The model ignores the deny and says it is done: bh must not believe it.
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "guessed"}))
	})
	s := newStore(t)
	s.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), Timeout: realTimeout}
	opt := Options{Env: fakeapi.Env(t, srv)}
	tk := addTask(t, s, "Pick a database")
	runWith(t, s, opt)
	got := getTask(t, s, tk.ID)
	if got.State != task.AwaitingInput {
		t.Fatalf("after AskUserQuestion: %s (%s)", got.State, got.Summary)
	}
	q := pendingOf(t, got)
	if q.Question != "Which database?" || q.Header != "Database" || q.Type != task.ChoiceQuestion || len(q.Options) != 2 ||
		q.Options[1].Label != "SQLite" {
		t.Fatalf("question: %+v", q)
	}
	denied := srv.Requests()[1].ToolResults()
	if len(denied) != 1 || !strings.Contains(denied[0].ResultText(), "put your question to the human") {
		t.Fatalf("the model was not told to stop: %+v", denied)
	}
	if _, err := Respond(s, tk.ID, []task.Answer{{QuestionID: q.ID, Values: []string{"Postgres"}}}, "human"); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, opt)
	done := getTask(t, s, tk.ID)
	if done.State != task.Closed || done.SessionID != got.SessionID {
		t.Fatalf("after the answer: %s (%s), session %s -> %s", done.State, done.Summary, got.SessionID, done.SessionID)
	}
	if e, ok := lastEvent(done, task.EventRunFinished); !ok || !strings.Contains(e.Stats, "turns") {
		t.Errorf("the run's stats are not in the history: %+v", e)
	}
	reqs := srv.Requests()
	if calls := reqs[2].ToolUses(); len(calls) == 0 || calls[0].Name != "AskUserQuestion" {
		t.Errorf("the resume lacks the earlier turns: %+v", calls)
	}
}

// A tool call that the permission mode would deny becomes an approval
// question; a yes allows exactly that call on the resumed run.
func TestClaudePermissionPromptBecomesApproval(t *testing.T) {
	t.Parallel()
	const cmd = "sh -c 'echo checked > checked.txt'"
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		res := req.ToolResults()
		switch {
		case len(res) == 1 && strings.Contains(res[0].ResultText(), "put your question"):
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "needs_input", "summary": "waiting for permission",
				"question": "May I run the check?"}))
		case len(res) == 1 && !res[0].IsError:
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "ran the check"}))
		}
		return fakeapi.Reply(fakeapi.Bash(cmd))
	})
	s := newStore(t)
	s.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), Timeout: realTimeout}
	opt := Options{Env: fakeapi.Env(t, srv)}
	tk := addTask(t, s, "Run the check")
	runWith(t, s, opt)
	got := getTask(t, s, tk.ID)
	if got.State != task.AwaitingInput {
		t.Fatalf("after the denied call: %s (%s)", got.State, got.Summary)
	}
	var perm task.Question
	for _, q := range got.Pending() {
		if q.Tool != "" {
			perm = q
		}
	}
	if perm.Tool != "Bash("+cmd+")" || perm.Type != task.ApprovalQuestion || !strings.Contains(perm.Question, cmd) {
		t.Fatalf("permission question: %+v (pending %+v)", perm, got.Pending())
	}
	var answers []task.Answer
	for _, q := range got.Pending() {
		answers = append(answers, task.Answer{QuestionID: q.ID, Values: []string{"yes"}})
	}
	if _, err := Respond(s, tk.ID, answers, "human"); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, opt)
	done := getTask(t, s, tk.ID)
	if done.State != task.Closed {
		t.Fatalf("after the approval: %s (%s)", done.State, done.Summary)
	}
	if c := committed(t, s.Root, "HEAD"); len(c) != 2 || c[1] != "checked.txt" {
		t.Errorf("commit holds %v, want the allowed command's file", c)
	}
}
