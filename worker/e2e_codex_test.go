package worker

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// The real Codex CLI against a fake Responses API, chosen by the task's
// own settings over a Claude config: its first run writes a file with a
// command and parks the task on a question; the thread id is the task's
// session; after the answer, the same thread resumes with the earlier
// turns and the answer, and the worker commits and lands the file. The
// thread survives a CODEX_HOME that lost it (another HOME, a cleanup): bh's
// copy of the rollout is put back.
func TestCodexTaskAsksResumesAndLands(t *testing.T) {
	for _, wipe := range []bool{false, true} {
		t.Run(map[bool]string{false: "kept", true: "restored"}[wipe], func(t *testing.T) {
			t.Parallel()
			codexAsksResumesAndLands(t, wipe)
		})
	}
}

func codexAsksResumesAndLands(t *testing.T, wipe bool) {
	srv := fakeapi.NewResponses(t, func(req *fakeapi.ResponsesRequest) fakeapi.Turn {
		switch {
		case strings.Contains(req.Prompt(), "Postgres"):
			return fakeapi.Reply(fakeapi.Final(map[string]any{"status": "completed", "summary": "configured postgres",
				"details": nil, "confidence": 0.9}))
		case len(req.Outputs()) == 0:
			return fakeapi.Reply(fakeapi.Exec("printf 'db: draft\\n' > db.yaml"))
		}
		return fakeapi.Reply(fakeapi.Final(map[string]any{"status": "needs_input", "summary": "drafted db.yaml",
			"questions": []any{map[string]any{"question": "Which database?", "type": "choice", "header": nil,
				"options": []any{map[string]any{"label": "Postgres"}, map[string]any{"label": "SQLite"}}}}}))
	})
	s := newStore(t)
	s.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), Binaries: map[string]string{"codex": fakeapi.Codex(t)},
		Timeout: realTimeout}
	tk, err := s.Create(&task.Task{Title: "Set up the database", AgentSettings: &task.AgentSettings{Agent: "codex",
		Model: "gpt-test", System: "Keep configs in YAML."}})
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Env: fakeapi.CodexEnv(t, srv)}
	runWith(t, s, opt)

	asked := getTask(t, s, tk.ID)
	if asked.State != task.AwaitingInput || len(asked.Questions) != 1 || asked.Questions[0].Kind() != task.ChoiceQuestion {
		t.Fatalf("after the first run: %s %q %+v", asked.State, asked.Summary, asked.Questions)
	}
	if asked.Agent != "codex" || asked.SessionID == "" {
		t.Errorf("agent %q, session %q", asked.Agent, asked.SessionID)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests before the answer, want 2", len(reqs))
	}
	var first struct {
		Model          string `json:"model"`
		PromptCacheKey string `json:"prompt_cache_key"`
	}
	json.Unmarshal(reqs[0].Body, &first)
	if first.Model != "gpt-test" || first.PromptCacheKey != asked.SessionID {
		t.Errorf("model %q, thread %q; want gpt-test in the task's session %s", first.Model, first.PromptCacheKey, asked.SessionID)
	}
	if p := reqs[0].Prompt(); !strings.Contains(p, "Keep configs in YAML.") || !strings.Contains(p, "Set up the database") ||
		!strings.Contains(p, "needs_input") {
		t.Errorf("first prompt lacks the contract, the task's instructions or the task:\n%s", p)
	}
	if _, err := os.Stat(sessionCopy(s, tk.ID, asked.SessionID)); err != nil {
		t.Errorf("bh kept no copy of the thread: %v", err)
	}

	if wipe {
		home := strings.TrimPrefix(opt.Env[slices.IndexFunc(opt.Env, func(kv string) bool {
			return strings.HasPrefix(kv, "CODEX_HOME=")
		})], "CODEX_HOME=")
		entries, _ := os.ReadDir(home)
		for _, e := range entries {
			if e.Name() != "config.toml" {
				os.RemoveAll(filepath.Join(home, e.Name()))
			}
		}
	}
	answer(t, s, tk.ID, "Postgres")
	runWith(t, s, opt)
	got := getTask(t, s, tk.ID)
	if got.State != task.Closed || got.SessionID != asked.SessionID {
		t.Fatalf("after the answer: %s %q in session %s", got.State, got.Summary, got.SessionID)
	}
	reqs = srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests in all, want 3", len(reqs))
	}
	resumed := reqs[2]
	if calls := resumed.Calls(); len(calls) != 1 || !strings.Contains(calls[0].Arguments, "db.yaml") {
		t.Errorf("the resumed request lacks the earlier command: %+v", calls)
	}
	if p := resumed.Prompt(); !strings.Contains(p, "Postgres") || !strings.Contains(p, "Which database?") ||
		!strings.Contains(p, "needs_input") {
		t.Errorf("the resumed prompt lacks the contract, the question or its answer:\n%s", p)
	}
	if said := resumed.AssistantTexts(); len(said) == 0 || !strings.Contains(said[len(said)-1], "Which database?") {
		t.Errorf("the resumed request lacks the question it asked: %q", said)
	}
	if show := gitT(t, s.Root, "show", "HEAD:db.yaml"); show != "db: draft" {
		t.Errorf("db.yaml on the target branch = %q", show)
	}
}
