package realagent

import (
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/cmd/internal/e2e"
	"github.com/bh-tracker/bh/task"
)

// TestWorkerWithRealCodex runs bh with the real Codex CLI
// against a fake Responses API, for a task that asks for codex itself
// (bh add --agent codex) in a repository configured for another agent: the
// first run writes a file with a command and asks; bh respond answers; the
// same thread resumes with the earlier turns and the answer, and the work
// lands in one commit.
func TestWorkerWithRealCodex(t *testing.T) {
	const title, answer = "Configure the database", "Postgres"
	srv := fakeapi.NewResponses(t, func(req *fakeapi.ResponsesRequest) fakeapi.Turn {
		switch p := req.Prompt(); {
		case !strings.Contains(p, title):
			t.Errorf("unexpected request #%d, prompt %q", req.N, p)
			return fakeapi.Fail(400, "invalid_request_error", "unexpected prompt")
		case strings.Contains(p, "Answer: "+answer) && len(req.Outputs()) == 1:
			return fakeapi.Reply(fakeapi.Exec("printf 'driver: postgres\\n' >> db.yaml"))
		case strings.Contains(p, "Answer: "+answer):
			return fakeapi.Reply(fakeapi.Final(map[string]any{"status": "completed", "summary": "chose postgres"}))
		case len(req.Outputs()) == 0:
			return fakeapi.Reply(fakeapi.Text("Drafting."), fakeapi.Exec("printf 'db: draft\\n' > db.yaml"))
		}
		return fakeapi.Reply(fakeapi.Final(map[string]any{"status": "needs_input", "summary": "drafted db.yaml",
			"questions": []any{map[string]any{"question": "Which database?", "type": "choice",
				"options": []any{map[string]any{"label": "Postgres"}, map[string]any{"label": "SQLite"}}}}}))
	})
	// The worker's agent inherits bh's environment, as from a user's shell.
	for _, kv := range fakeapi.CodexEnv(t, srv) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	dir := t.TempDir()
	bhE2E.Repo(t, dir, "prefix: tm\nagent:\n  kind: command\n  command: [false]\n  timeout: "+e2e.RealTimeout+"\n  binaries:\n    codex: "+
		fakeapi.Codex(t)+"\n")
	id := strings.TrimSpace(bhE2E(t, dir, "add", title, "--agent", "codex", "--model", "gpt-test"))

	bhE2E(t, dir, "worker", "--once")
	asked := bhE2E.Task(t, dir, id)
	if asked.State != task.AwaitingInput || asked.Question != "Which database?" || asked.Agent != "codex" {
		t.Fatalf("%s is %s asking %q (agent %q)", id, asked.State, asked.Question, asked.Agent)
	}
	if tr := bhE2E(t, dir, "transcript", id); !strings.Contains(tr, "db.yaml") || !strings.Contains(tr, "Drafting.") {
		t.Errorf("bh transcript %s:\n%s", id, tr)
	}
	bhE2E(t, dir, "respond", id, "--choice", answer)
	bhE2E(t, dir, "worker", "--once")

	got := bhE2E.Task(t, dir, id)
	if got.State != task.Closed || got.SessionID != asked.SessionID {
		t.Fatalf("%s is %s (%s) in thread %s, want closed in %s", id, got.State, got.Summary, got.SessionID, asked.SessionID)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4 (two per run)", len(reqs))
	}
	resumed := reqs[2]
	if texts := resumed.UserTexts(); len(texts) != 2 || !strings.Contains(texts[0], title) || !strings.Contains(texts[1], "Answer: "+answer) {
		t.Errorf("the resumed request's user texts = %q, want the first prompt, then the answer", texts)
	}
	if calls := resumed.Calls(); len(calls) != 1 || !strings.Contains(calls[0].Arguments, "db: draft") {
		t.Errorf("the resumed request lacks the first run's command: %+v", calls)
	}
	commit := e2e.Git(t, dir, "log", "--format=%H", "--grep", "bh-task: "+id)
	if files := sortedLines(e2e.Git(t, dir, "show", "--name-only", "--format=", commit)); !slices.Equal(files,
		[]string{".bh/tasks/" + id + ".yaml", "db.yaml"}) {
		t.Errorf("the commit holds %q", files)
	}
	if db := e2e.Read(t, dir, "db.yaml"); db != "db: draft\ndriver: postgres\n" {
		t.Errorf("db.yaml = %q", db)
	}
}
