package cmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/github/githubtest"
)

// TestGitHubIssueAnsweredByCollaborator: a labelled issue becomes one task
// through bh import github (the token from the real gh's own login); the
// real claude asks a choice; the question appears on the issue as one
// comment; a reply /bh 2 by a collaborator reaches claude's resumed
// session as the answer, in a request that carries the first run's tool
// call (the same session), while the same reply by a reader and by bh's
// own account changed nothing.
func TestGitHubIssueAnsweredByCollaborator(t *testing.T) {
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		if strings.Contains(req.Prompt(), "Human Response to Your Question") {
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "resumed"}))
		}
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "needs_input", "summary": "Two would do.",
			"questions": []any{map[string]any{"question": "Which database?", "type": "choice",
				"options": []any{map[string]any{"label": "PostgreSQL"}, map[string]any{"label": "SQLite"}}}}}))
	})
	api := githubtest.New(t)
	for _, kv := range append(fakeapi.Env(t, srv), githubtest.Env(t, api)...) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	api.AddIssue("Store the sessions", "Pick a database and use it.", "bh")
	api.AddIssue("Unrelated", "not for bh")
	dir := t.TempDir()
	repoE2E(t, dir, "prefix: tm\nagent:\n  kind: claude\n  binary: "+fakeapi.Claude(t)+"\n  timeout: "+realTimeout+"\n")
	id := strings.TrimSpace(bhE2E(t, dir, "import", "github"))
	if again := strings.TrimSpace(bhE2E(t, dir, "import", "github")); again != "" || id == "" {
		t.Fatalf("bh import github made %q, then %q: want one task, once", id, again)
	}
	bhE2E(t, dir, "worker", "--once")
	if st := bhTask(t, dir, id).State; st != task.AwaitingInput {
		t.Fatalf("%s after its first run, want awaiting_input", st)
	}
	bhE2E(t, dir, "import", "github")
	bhE2E(t, dir, "import", "github")
	bodies := api.Bodies(1)
	if len(bodies) != 1 || !strings.Contains(bodies[0], "2. SQLite") {
		t.Fatalf("the question on the issue: %q, want one comment with the choices numbered", bodies)
	}
	api.SetPerm("reader", "read")
	api.AddComment(1, "reader", "/bh 2")
	api.AddComment(1, githubtest.Bot, "/bh 2")
	bhE2E(t, dir, "import", "github")
	if st := bhTask(t, dir, id).State; st != task.AwaitingInput {
		t.Fatalf("a reader's or bh's own /bh 2 answered: %s", st)
	}
	api.SetPerm("maintainer", "admin")
	api.AddComment(1, "maintainer", "/bh 2")
	bhE2E(t, dir, "import", "github")
	if got := bhTask(t, dir, id); got.State != task.Open || got.Questions[0].Answer[0] != "SQLite" {
		t.Fatalf("after a collaborator's /bh 2: %s %+v", got.State, got.Questions)
	}
	bhE2E(t, dir, "worker", "--once")
	reqs := requestsFor(srv, "Human Response to Your Question")
	if len(reqs) == 0 {
		t.Fatalf("claude was never resumed (%s)", bhTask(t, dir, id).State)
	}
	resumed := reqs[len(reqs)-1]
	if !strings.Contains(resumed.Prompt(), "\nAnswer: SQLite\n") {
		t.Errorf("the answer never reached claude as given; its user message:\n%s", resumed.Prompt())
	}
	first := false
	for _, b := range resumed.ToolUses() {
		var in struct{ Summary string }
		json.Unmarshal(b.Input, &in)
		first = first || b.Name == "StructuredOutput" && in.Summary == "Two would do."
	}
	if !first {
		t.Errorf("the resumed request lacks the first run's tool call: not the same session (%d tool calls)", len(resumed.ToolUses()))
	}
	if st := bhTask(t, dir, id).State; st == task.AwaitingInput || st == task.Open {
		t.Errorf("%s after the resumed run", st)
	}
}

// bh sync takes the issues too when the config names github:, and
// commits the tasks it made in the same sync.
func TestSyncImportsIssues(t *testing.T) {
	api := githubtest.New(t)
	for _, kv := range githubtest.Env(t, api) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	api.AddIssue("Store the sessions", "Pick a database.", "agents")
	api.AddIssue("Labelled bh, not agents", "no", "bh")
	dir := t.TempDir()
	repoE2E(t, dir, "prefix: tm\ngithub:\n  label: agents\n  priority:\n    agents: P1\n")
	remote := filepath.Join(t.TempDir(), "remote.git")
	gitE2E(t, dir, "init", "-q", "--bare", "-b", "main", remote)
	gitE2E(t, dir, "remote", "add", "origin", remote)
	bhE2E(t, dir, "sync")
	var got []task.Task
	if err := json.Unmarshal([]byte(bhE2E(t, dir, "list", "--json")), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Title != "Store the sessions" || got[0].Priority != "P1" {
		t.Fatalf("tasks after bh sync: %+v", got)
	}
	if out := gitE2E(t, dir, "status", "--porcelain", ".bh"); strings.TrimSpace(out) != "" {
		t.Errorf("the imported task is not committed by the sync that made it: %s", out)
	}
}
