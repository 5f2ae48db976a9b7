package realagent

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/cmd/internal/e2e"
	"github.com/bh-tracker/bh/task"
)

// The whole CLI with the real claude: the model calls AskUserQuestion, which
// reaches `bh mcp` (started by claude from this very binary) as a
// permission prompt; the task waits with the typed question, is answered
// with bh respond --choice, and the same session resumes with the choice.
func TestAskUserQuestionWithRealClaude(t *testing.T) {
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		switch p, res := req.Prompt(), req.ToolResults(); {
		case strings.Contains(p, "Answer: SQLite"):
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "went with SQLite"}))
		case len(res) == 0:
			return fakeapi.Reply(fakeapi.ToolUse("AskUserQuestion", map[string]any{"questions": []any{map[string]any{
				"question": "Which database?", "header": "DB", "multiSelect": false,
				"options": []any{map[string]any{"label": "Postgres", "description": "a server"},
					map[string]any{"label": "SQLite", "description": "one file"}}}}}))
		}
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "guessed Postgres"}))
	})
	for _, kv := range fakeapi.Env(t, srv) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	dir := t.TempDir()
	bhE2E.Repo(t, dir, "prefix: tm\nagent:\n  kind: claude\n  binary: "+fakeapi.Claude(t)+"\n  timeout: "+e2e.RealTimeout+"\n")
	id := strings.TrimSpace(bhE2E(t, dir, "add", "Pick the database"))

	bhE2E(t, dir, "worker", "--once")
	asked := bhE2E.Task(t, dir, id)
	if asked.State != task.AwaitingInput || len(asked.Pending()) != 1 || asked.Pending()[0].Question != "Which database?" {
		t.Fatalf("after AskUserQuestion: %s %+v", asked.State, asked.Pending())
	}
	if out := bhE2E(t, dir, "list", "--awaiting"); !strings.Contains(out, "Which database?") {
		t.Errorf("bh list --awaiting:\n%s", out)
	}
	bhE2E(t, dir, "respond", id, "--choice", "SQLite")
	bhE2E(t, dir, "worker", "--once")
	done := bhE2E.Task(t, dir, id)
	if done.State != task.Closed || done.Summary != "went with SQLite (no file changed)" || done.SessionID != asked.SessionID {
		t.Fatalf("after the choice: %s %q, session %s -> %s", done.State, done.Summary, asked.SessionID, done.SessionID)
	}
	reqs := srv.Requests()
	if calls := reqs[len(reqs)-1].ToolUses(); len(calls) == 0 || calls[0].Name != "AskUserQuestion" {
		t.Errorf("the resumed session lacks the earlier turns: %+v", calls)
	}
}
