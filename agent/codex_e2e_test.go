package agent

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
)

// codexE2E is the real codex binary talking to a fake Responses API, in a
// real git repository, with its own CODEX_HOME shared by all runs of one test.
type codexE2E struct {
	srv   *fakeapi.Responses
	env   []string
	dir   string
	codex *Codex
}

func newCodexE2E(t *testing.T, script fakeapi.CodexScript) *codexE2E {
	t.Helper()
	srv := fakeapi.NewResponses(t, script)
	return &codexE2E{srv: srv, env: fakeapi.CodexEnv(t, srv), dir: gitRepo(t),
		codex: NewCodex(CodexConfig{Binary: fakeapi.Codex(t), Timeout: fakeapi.Patience(time.Minute)})}
}

func (e *codexE2E) run(t *testing.T, req Request) (*Outcome, error) {
	t.Helper()
	start := time.Now()
	req.Dir, req.Env, req.TaskID = e.dir, e.env, "bh-test"
	out, err := e.codex.Run(context.Background(), req)
	t.Logf("codex run took %s", time.Since(start).Round(time.Millisecond))
	return out, err
}

const codexContract = "Answer with bh's result object."

// TestCodexAsksThenResumes: a first run runs a command that writes a file
// and parks on needs_input; the resumed thread gets the earlier turns and
// the answer, and completes.
func TestCodexAsksThenResumes(t *testing.T) {
	t.Parallel()
	const answer = "Use Postgres."
	e := newCodexE2E(t, func(req *fakeapi.ResponsesRequest) fakeapi.Turn {
		switch {
		case strings.HasSuffix(strings.TrimSpace(req.Prompt()), answer):
			return fakeapi.Reply(fakeapi.Final(map[string]any{"status": "completed", "summary": "configured postgres"}))
		case len(req.Outputs()) == 0:
			return fakeapi.Reply(fakeapi.Text("Drafting."), fakeapi.Exec("printf 'draft\\n' > db.txt"))
		}
		return fakeapi.Reply(fakeapi.Final(map[string]any{"status": "needs_input", "summary": "drafted db.txt",
			"questions": []any{map[string]any{"question": "Which database should I use?", "type": "choice",
				"options": []any{map[string]any{"label": "Postgres"}, map[string]any{"label": "SQLite"}}}}}))
	})
	var named []string
	var steps []string
	first, err := e.run(t, Request{Prompt: "set up the database", System: codexContract,
		Session: func(id string) { named = append(named, id) }, Step: func(s string) { steps = append(steps, s) }})
	if err != nil {
		t.Fatalf("first run: %v", err)
	}
	if first.Result.Status != StatusNeedsInput || first.Result.Question != "Which database should I use?" ||
		first.Result.Questions[0].Type != QuestionChoice {
		t.Fatalf("first result = %+v", first.Result)
	}
	thread := first.SessionID
	if thread == "" || !slices.Equal(named, []string{thread}) {
		t.Errorf("thread %q, Request.Session told %q", thread, named)
	}
	if len(steps) != 1 || !strings.Contains(steps[0], "db.txt") {
		t.Errorf("steps = %q", steps)
	}
	if got, _ := os.ReadFile(filepath.Join(e.dir, "db.txt")); string(got) != "draft\n" {
		t.Errorf("db.txt = %q", got)
	}
	reqs := e.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("codex made %d requests, want 2 (the command, then the answer)", len(reqs))
	}
	if p := reqs[0].Prompt(); !strings.HasPrefix(p, codexContract) || !strings.Contains(p, "set up the database") {
		t.Errorf("first prompt = %q, want the contract then the task", p)
	}
	if out := reqs[1].Outputs(); len(out) != 1 || !strings.Contains(out[0].OutputText(), "exited with code 0") {
		t.Errorf("exec_command output = %+v", out)
	}
	assertStrictFormat(t, reqs[0])

	second, err := e.run(t, Request{Prompt: answer, System: codexContract, SessionID: thread, Resume: true})
	if err != nil {
		t.Fatalf("resumed run: %v", err)
	}
	if second.Result.Status != StatusCompleted || second.SessionID != thread {
		t.Errorf("resumed outcome = %+v in thread %q, want completed in %q", second.Result, second.SessionID, thread)
	}
	reqs = e.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("codex made %d requests, want 3", len(reqs))
	}
	resumed := reqs[2]
	if texts := resumed.UserTexts(); len(texts) != 2 || !strings.Contains(texts[0], "set up the database") ||
		!strings.HasPrefix(texts[1], codexContract) || !strings.HasSuffix(strings.TrimSpace(texts[1]), answer) {
		t.Errorf("resumed user texts = %q, want the first prompt, then the contract and the answer", texts)
	}
	calls := resumed.Calls()
	if len(calls) != 1 || calls[0].Name != "exec_command" || !strings.Contains(calls[0].Arguments, "db.txt") {
		t.Errorf("resumed request calls = %+v, want the earlier exec_command", calls)
	}
	if said := resumed.AssistantTexts(); len(said) < 2 || !strings.Contains(said[len(said)-1], "needs_input") {
		t.Errorf("resumed request's earlier answers = %q", said)
	}
	assertStrictFormat(t, resumed)
	if _, err := os.Stat(e.codex.SessionFile(Request{SessionID: thread, Env: e.env})); err != nil {
		t.Errorf("the thread's rollout file: %v", err)
	}
}

// assertStrictFormat checks that --output-schema reached the model as
// StrictSchema, in strict mode.
func assertStrictFormat(t *testing.T, req *fakeapi.ResponsesRequest) {
	t.Helper()
	var f struct {
		Type   string          `json:"type"`
		Strict bool            `json:"strict"`
		Schema json.RawMessage `json:"schema"`
	}
	if err := json.Unmarshal(req.Format, &f); err != nil {
		t.Fatalf("text.format %s: %v", req.Format, err)
	}
	var got, want any
	json.Unmarshal(f.Schema, &got)
	json.Unmarshal([]byte(StrictSchema()), &want)
	if f.Type != "json_schema" || !f.Strict || !jsonEqual(got, want) {
		t.Errorf("text.format = %s, want StrictSchema, strict", req.Format)
	}
}

func TestCodexAPIError(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		status int
		outage Outage
	}{{500, OutageOverloaded}, {401, OutageAuth}} {
		e := newCodexE2E(t, func(*fakeapi.ResponsesRequest) fakeapi.Turn {
			return fakeapi.Fail(c.status, "server_error", "the fake model is down")
		})
		_, err := e.run(t, Request{Prompt: "anything"})
		var re *RunError
		if !errors.As(err, &re) {
			t.Fatalf("%d: err = %v, want *RunError", c.status, err)
		}
		t.Logf("%d: %v (exit %d)\nstdout: %s\nstderr: %s", c.status, err, re.ExitCode, re.Raw, re.Stderr)
		if re.Outage != c.outage {
			t.Errorf("%d: outage %q, want %q", c.status, re.Outage, c.outage)
		}
	}
}

// Codex with its API refusing connections waits for the network with
// growing pauses, for ever: bh stops it after netTries and reports the
// outage (the task's fault it is not).
func TestCodexUnreachableAPI(t *testing.T) {
	t.Parallel()
	e := newCodexE2E(t, func(*fakeapi.ResponsesRequest) fakeapi.Turn {
		return fakeapi.Reply(fakeapi.Final(map[string]any{"status": "completed", "summary": "not offline"}))
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/v1"
	l.Close()
	for _, kv := range e.env {
		if home, ok := strings.CutPrefix(kv, "CODEX_HOME="); ok {
			path := filepath.Join(home, "config.toml")
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			b = regexp.MustCompile(`base_url = ".*"`).ReplaceAll(b, []byte(`base_url = "`+closed+`"`))
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	_, err = e.run(t, Request{Prompt: "anything"})
	var re *RunError
	if !errors.As(err, &re) || re.Outage != OutageUnreachable {
		t.Fatalf("err = %v, want the unreachable outage", err)
	}
	if n := len(e.srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the fake API", n)
	}
}
