package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/ask"
)

func TestParseResultCapsText(t *testing.T) {
	big := strings.Repeat("x", 3*ask.MaxTextBytes)
	capped := ask.CapText(big)
	raw, err := json.Marshal(map[string]any{"status": "needs_input", "summary": big, "details": big,
		"questionContext": big, "issues": []string{"short", big},
		"questions": []map[string]any{{"question": big, "header": big, "type": "choice", "default": big,
			"options": []map[string]string{{"label": big, "description": big}, {"label": "b"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseResult(raw)
	if err != nil {
		t.Fatal(err)
	}
	q := r.Questions[0]
	for name, got := range map[string]string{"summary": r.Summary, "details": r.Details, "question": r.Question,
		"questionContext": r.QuestionContext, "issue": r.Issues[1], "questions[0].question": q.Question,
		"header": q.Header, "default": q.Default, "label": q.Options[0].Label, "description": q.Options[0].Description} {
		if got != capped {
			t.Errorf("%s has %d bytes, want %d, capped", name, len(got), len(capped))
		}
	}
	if r.Issues[0] != "short" || q.Options[1].Label != "b" || q.Type != QuestionChoice {
		t.Errorf("short fields changed: %+v", r)
	}
}
