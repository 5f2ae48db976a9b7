package agent

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseResult(t *testing.T) {
	half := 0.5
	tests := []struct {
		name string
		text string
		want Result
	}{
		{"whole object", `{"status":"completed","summary":"done","confidence":0.5}`,
			Result{Status: StatusCompleted, Summary: "done", Confidence: &half}},
		{"whitespace around", "\n  {\"status\":\"failed\",\"summary\":\"tests fail\",\"issues\":[\"a\",\"b\"]}\n",
			Result{Status: StatusFailed, Summary: "tests fail", Issues: []string{"a", "b"}}},
		{"fenced in prose", "All good.\n```json\n{\"status\": \"completed\", \"summary\": \"added {x}\"}\n```\nBye.",
			Result{Status: StatusCompleted, Summary: "added {x}"}},
		{"bare after code braces", "I wrote func f() { return }\nthen:\n{\"status\":\"blocked\",\"summary\":\"no db\"}",
			Result{Status: StatusBlocked, Summary: "no db"}},
		{"last valid object wins", `{"status":"failed","summary":"draft"} then {"status":"completed","summary":"final"} {"note":1}`,
			Result{Status: StatusCompleted, Summary: "final"}},
		{"status spelled loosely", `{"status":" Needs-Input ","summary":"s","question":"which?"}`,
			Result{Status: StatusNeedsInput, Summary: "s", Question: "which?",
				Questions: []Question{{Question: "which?", Type: QuestionFreeform}}}},
		{"needs_input without question asks the summary", `{"status":"needs_input","summary":"Should I drop the table?"}`,
			Result{Status: StatusNeedsInput, Summary: "Should I drop the table?", Question: "Should I drop the table?",
				Questions: []Question{{Question: "Should I drop the table?", Type: QuestionFreeform}}}},
		{"questions fill question", `{"status":"needs_input","summary":"two things","questions":[
			{"question":"Which db?","type":"choice","options":[{"label":"pg","description":"Postgres"},{"label":"sqlite"}],"default":"pg"},
			{"question":"Ship it?","type":"APPROVAL"},
			{"question":"Pick","type":"choice"}]}`,
			Result{Status: StatusNeedsInput, Summary: "two things", Question: "Which db?", Questions: []Question{
				{Question: "Which db?", Type: QuestionChoice, Options: []Option{{Label: "pg", Description: "Postgres"}, {Label: "sqlite"}}, Default: "pg"},
				{Question: "Ship it?", Type: QuestionApproval},
				{Question: "Pick", Type: QuestionFreeform}}}},
		{"lone question on blocked", `{"status":"blocked","summary":"s","question":"Can you grant access?","questionContext":"ctx"}`,
			Result{Status: StatusBlocked, Summary: "s", Question: "Can you grant access?", QuestionContext: "ctx",
				Questions: []Question{{Question: "Can you grant access?", Type: QuestionFreeform}}}},
		{"wrongly typed optional field is dropped", `{"status":"completed","summary":"s","confidence":"high"}`,
			Result{Status: StatusCompleted, Summary: "s"}},
		{"after a broken object", `{"status":"failed", oops {"status":"completed","summary":"s"}`,
			Result{Status: StatusCompleted, Summary: "s"}},
		{"stray quote in prose before it", `I set {"x": "y} then: {"status":"completed","summary":"s"}`,
			Result{Status: StatusCompleted, Summary: "s"}},
		{"after 1 MB of nested unterminated json", strings.Repeat(`{"a":`, 1<<20/5) +
			"\n```json\n{\"status\":\"completed\",\"summary\":\"s\"}\n```",
			Result{Status: StatusCompleted, Summary: "s"}},
		{"after 1 MB of quote braces", strings.Repeat(`{"`, 1<<20/2) + `{"status":"completed","summary":"s"}`,
			Result{Status: StatusCompleted, Summary: "s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseResult([]byte(tt.text))
			if err != nil {
				t.Fatalf("ParseResult: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseResult =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestParseResultErrors(t *testing.T) {
	for name, text := range map[string]string{
		"empty":                    "",
		"prose":                    "I fixed the bug.",
		"invalid status":           `{"status":"done","summary":"x"}`,
		"status not a string":      `{"status":1,"summary":"x"}`,
		"no status":                "```json\n{\"summary\":\"x\"}\n```",
		"needs_input with nothing": `{"status":"needs_input","summary":""}`,
		"broken json":              `{"status":"completed","summary":"x"`,
	} {
		t.Run(name, func(t *testing.T) {
			r, err := ParseResult([]byte(text))
			if !errors.Is(err, ErrNoResult) {
				t.Errorf("ParseResult = %+v, %v; want an error wrapping ErrNoResult", r, err)
			}
		})
	}
}

func BenchmarkParseResultFenced(b *testing.B) {
	text := []byte(strings.Repeat("Changed func f() { return } in a.go.\n", 200) +
		"```json\n{\"status\":\"completed\",\"summary\":\"done\",\"issues\":[\"x\"]}\n```\n")
	for b.Loop() {
		if _, err := ParseResult(text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseClaude(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("testdata", "claude", "success_structured.json"))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := ParseClaude(raw); err != nil {
			b.Fatal(err)
		}
	}
}
