package agent

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/google/uuid"
)

func TestClaudeWritesAndCompletes(t *testing.T) {
	t.Parallel()
	e := newE2E(t, ClaudeConfig{}, fakeapi.Sequence(
		fakeapi.Reply(fakeapi.Text("Creating the file."), fakeapi.Write("hello.txt", "hello\n")),
		fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "wrote hello.txt",
			"confidence": 0.9})),
	))
	session := uuid.NewString()
	prompt := "--help is not a flag here: create hello.txt"
	out, err := e.run(t, prompt, session, false)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	saveTranscript(t, "success_structured.json", out.Raw)
	if out.Result.Status != StatusCompleted || out.Result.Summary != "wrote hello.txt" || *out.Result.Confidence != 0.9 {
		t.Errorf("result = %+v", out.Result)
	}
	if out.SessionID != session {
		t.Errorf("session = %q, want %q", out.SessionID, session)
	}
	if got, _ := os.ReadFile(filepath.Join(e.dir, "hello.txt")); string(got) != "hello\n" {
		t.Errorf("hello.txt = %q", got)
	}
	if st := gitStatus(t, e.dir); st != "?? hello.txt" {
		t.Errorf("git status = %q, want only the agent's new file", st)
	}

	reqs := e.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("claude made %d main requests, want 2 (Write, then StructuredOutput ends the run)", len(reqs))
	}
	if reqs[0].Prompt() != prompt {
		t.Errorf("first prompt = %q, want %q", reqs[0].Prompt(), prompt)
	}
	if res := reqs[1].ToolResults(); len(res) != 1 || res[0].IsError || !strings.Contains(res[0].ResultText(), "hello.txt") {
		t.Errorf("Write tool result = %+v", res)
	}
	assertSchemaSent(t, reqs[0])
}

// assertSchemaSent checks that --json-schema reached the model as the
// StructuredOutput tool's input schema.
func assertSchemaSent(t *testing.T, req *fakeapi.Request) {
	t.Helper()
	var body struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(req.Body, &body); err != nil {
		t.Fatal(err)
	}
	var want, got any
	json.Unmarshal([]byte(Schema), &want)
	for _, tool := range body.Tools {
		if tool.Name == "StructuredOutput" {
			json.Unmarshal(tool.InputSchema, &got)
		}
	}
	if !jsonEqual(got, want) {
		t.Errorf("StructuredOutput schema = %v, want Schema", got)
	}
}

func jsonEqual(a, b any) bool {
	ra, _ := json.Marshal(a)
	rb, _ := json.Marshal(b)
	return a != nil && string(ra) == string(rb)
}

func TestClaudeNeedsInputThenResume(t *testing.T) {
	t.Parallel()
	const answer = "Use Postgres."
	e := newE2E(t, ClaudeConfig{}, func(req *fakeapi.Request) fakeapi.Turn {
		switch {
		case req.Prompt() == answer:
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "configured postgres"}))
		case len(req.ToolResults()) == 0:
			return fakeapi.Reply(fakeapi.Write("db.txt", "draft\n"))
		default:
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "needs_input",
				"summary": "drafted db.txt", "question": "Which database should I use?"}))
		}
	})
	session := uuid.NewString()
	first, err := e.run(t, "set up the database", session, false)
	if err != nil {
		t.Fatalf("first run: %v", err)
	}
	saveTranscript(t, "needs_input.json", first.Raw)
	if first.Result.Status != StatusNeedsInput || first.Result.Question != "Which database should I use?" {
		t.Fatalf("first result = %+v, want needs_input asking the summary", first.Result)
	}

	second, err := e.run(t, answer, session, true)
	if err != nil {
		t.Fatalf("resumed run: %v", err)
	}
	saveTranscript(t, "resumed_completed.json", second.Raw)
	if second.Result.Status != StatusCompleted || second.SessionID != session {
		t.Errorf("resumed outcome = %+v in session %q, want completed in %q", second.Result, second.SessionID, session)
	}
	reqs := e.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("claude made %d main requests, want 3", len(reqs))
	}
	resumed := reqs[2]
	if texts := resumed.UserTexts(); !slices.Contains(texts, "set up the database") || texts[len(texts)-1] != answer {
		t.Errorf("resumed request user texts = %q, want the first prompt and then the answer", texts)
	}
	calls := resumed.ToolUses()
	var write map[string]string
	if len(calls) != 2 || calls[0].Name != "Write" || json.Unmarshal(calls[0].Input, &write) != nil ||
		write["file_path"] != "db.txt" || write["content"] != "draft\n" || calls[1].Name != "StructuredOutput" {
		t.Errorf("resumed request tool calls = %+v, want the earlier Write and StructuredOutput", calls)
	}
}

func TestClaudeFencedJSONWithoutStructuredOutput(t *testing.T) {
	t.Parallel()
	reply := "Done.\n```json\n{\"status\": \"blocked\", \"summary\": \"the CI token is missing\"}\n```"
	e := newE2E(t, ClaudeConfig{}, func(*fakeapi.Request) fakeapi.Turn { return fakeapi.Reply(fakeapi.Text(reply)) })
	out, err := e.run(t, "deploy", uuid.NewString(), false)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	saveTranscript(t, "fenced_text.json", out.Raw)
	if out.Result.Status != StatusBlocked || out.Result.Summary != "the CI token is missing" {
		t.Errorf("result = %+v", out.Result)
	}
	// claude asks once more for the StructuredOutput call, then settles for the text.
	if n := len(e.srv.Requests()); n != 2 {
		t.Errorf("claude made %d main requests, want 2", n)
	}
}

func TestClaudeAPIError(t *testing.T) {
	t.Parallel()
	e := newE2E(t, ClaudeConfig{}, func(*fakeapi.Request) fakeapi.Turn {
		return fakeapi.Fail(500, "api_error", "the fake model is down")
	})
	_, err := e.run(t, "anything", uuid.NewString(), false)
	var re *RunError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want *RunError", err)
	}
	saveTranscript(t, "api_error_500.json", re.Raw)
	if !errors.Is(err, ErrClaudeReported) || re.ExitCode != 1 || !strings.Contains(re.Reason, "500 the fake model is down") {
		t.Errorf("RunError{Reason: %q, ExitCode: %d, Err: %v}", re.Reason, re.ExitCode, re.Err)
	}
	if n := len(e.srv.Requests()); n != 1 {
		t.Errorf("claude made %d requests; retries should be off", n)
	}
}
