package agent

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/google/uuid"
)

// transcript is a file of claude stdout in testdata/claude and what
// ParseClaude must make of it. Those with a script are recorded by
// TestClaudeTranscripts (-update rewrites them); the others come from the
// e2e tests or, for garbage, by hand.
type transcript struct {
	file   string
	args   []string
	script fakeapi.Script
	check  func(t *testing.T, out *Outcome, err error)
}

func completed(summary string) fakeapi.Part {
	return fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": summary})
}

var transcripts = []transcript{
	{file: "success_structured.json", check: wantResult(StatusCompleted, "wrote hello.txt", "")},
	{file: "needs_input_no_question.json", check: wantResult(StatusNeedsInput, "Which database should I use?", "Which database should I use?")},
	{file: "resumed_completed.json", check: wantResult(StatusCompleted, "configured postgres", "")},
	{file: "fenced_text.json", check: wantResult(StatusBlocked, "the CI token is missing", "")},
	// Usage limits (LIMITS.md): recorded by limits_e2e_test.go's runs.
	{file: "stream_limit_warning.jsonl", check: wantResult(StatusCompleted, "ok", "")},
	{file: "stream_limit_rejected.jsonl", check: wantRunError(ErrClaudeReported, "You've hit your 5-hour limit · resets")},
	{file: "stream_429_apikey.jsonl", check: wantRunError(ErrClaudeReported, "API Error: Request rejected (429)")},
	{file: "api_error_500.json", check: wantRunError(ErrClaudeReported, "API Error: 500 the fake model is down")},
	{file: "overloaded_529.json", script: func(*fakeapi.Request) fakeapi.Turn {
		return fakeapi.Fail(529, "overloaded_error", "Overloaded")
	}, check: wantRunError(ErrClaudeReported, "API Error: 529 Overloaded")},
	{file: "needs_input_questions.json", script: fakeapi.Sequence(fakeapi.Reply(
		fakeapi.Text("Two decisions first."),
		fakeapi.StructuredOutput(map[string]any{"status": "needs_input", "summary": "two decisions",
			"questionContext": "the schema is shared with billing",
			"questions": []map[string]any{
				{"question": "Which database?", "header": "DB", "type": "choice", "default": "pg",
					"options": []map[string]string{{"label": "pg", "description": "Postgres"}, {"label": "sqlite"}}},
				{"question": "May I drop the old table?", "type": "approval"},
			}}))),
		check: func(t *testing.T, out *Outcome, err error) {
			wantResult(StatusNeedsInput, "two decisions", "Which database?")(t, out, err)
			if qs := out.Result.Questions; len(qs) != 2 || qs[0].Type != QuestionChoice || len(qs[0].Options) != 2 ||
				qs[1].Type != QuestionApproval || out.Result.QuestionContext == "" {
				t.Errorf("questions = %+v", out.Result)
			}
		}},
	{file: "failed_with_issues.json", script: fakeapi.Sequence(fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{
		"status": "failed", "summary": "the tests cannot pass", "issues": []string{"flaky network test"}, "confidence": 0.2}))),
		check: func(t *testing.T, out *Outcome, err error) {
			wantResult(StatusFailed, "the tests cannot pass", "")(t, out, err)
			if len(out.Result.Issues) != 1 || out.Result.Confidence == nil || *out.Result.Confidence != 0.2 {
				t.Errorf("result = %+v", out.Result)
			}
		}},
	{file: "prose_only.json", script: func(*fakeapi.Request) fakeapi.Turn {
		return fakeapi.Reply(fakeapi.Text("I fixed the bug."))
	}, check: wantRunError(ErrNoResult, "claude answered without a result")},
	{file: "max_turns.json", args: []string{"--max-turns", "1"}, script: fakeapi.Sequence(
		fakeapi.Reply(fakeapi.Write("a.txt", "a")), fakeapi.Reply(completed("never reached"))),
		check: wantRunError(ErrClaudeReported, "error_max_turns")},
	{file: "garbage.txt", check: wantRunError(nil, "claude printed no json result")},
	{file: "truncated.json", check: wantRunError(nil, "claude printed no json result")},
}

func wantResult(status Status, summary, question string) func(*testing.T, *Outcome, error) {
	return func(t *testing.T, out *Outcome, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("err = %v", err)
		}
		r := out.Result
		if r.Status != status || r.Summary != summary || r.Question != question {
			t.Errorf("result = %+v, want status %s, summary %q, question %q", r, status, summary, question)
		}
		if uuid.Validate(out.SessionID) != nil || len(out.Raw) == 0 {
			t.Errorf("outcome session %q with %d bytes of raw output", out.SessionID, len(out.Raw))
		}
	}
}

func wantRunError(cause error, reason string) func(*testing.T, *Outcome, error) {
	return func(t *testing.T, out *Outcome, err error) {
		t.Helper()
		var re *RunError
		if !errors.As(err, &re) {
			t.Fatalf("got %+v, %v; want a *RunError", out, err)
		}
		if !strings.Contains(re.Reason, reason) || cause != nil && !errors.Is(err, cause) || len(re.Raw) == 0 {
			t.Errorf("RunError{Reason: %q, Err: %v, %d bytes raw}, want reason with %q caused by %v",
				re.Reason, re.Err, len(re.Raw), reason, cause)
		}
	}
}

func TestParseClaudeTranscripts(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "claude", "*"))
	for _, f := range files {
		if !slices.ContainsFunc(transcripts, func(tr transcript) bool { return tr.file == filepath.Base(f) }) {
			t.Errorf("%s has no expectation in transcripts", f)
		}
	}
	for _, tr := range transcripts {
		t.Run(tr.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", "claude", tr.file))
			if err != nil {
				t.Fatal(err)
			}
			out, err := ParseClaude(raw)
			tr.check(t, out, err)
		})
	}
}

// TestClaudeTranscripts replays the scripted transcripts through the real
// claude, so the stored files stay what this claude version really prints.
func TestClaudeTranscripts(t *testing.T) {
	t.Parallel()
	for _, tr := range transcripts {
		if tr.script == nil {
			continue
		}
		t.Run(tr.file, func(t *testing.T) {
			t.Parallel()
			e := newE2E(t, ClaudeConfig{ExtraArgs: tr.args}, tr.script)
			out, err := e.run(t, "do the task", uuid.NewString(), false)
			tr.check(t, out, err)
			if out != nil {
				saveTranscript(t, tr.file, out.Raw)
			} else if re := (*RunError)(nil); errors.As(err, &re) {
				saveTranscript(t, tr.file, re.Raw)
			}
		})
	}
}
