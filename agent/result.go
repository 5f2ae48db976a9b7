// Package agent runs a coding agent on a prompt and reads back its answer:
// the Runner interface, the Claude Code adapter, a generic command adapter,
// and the parsing of the result contract the agent must answer with.
package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/agent/ask"
)

// Status is how the agent says its run ended.
type Status string

const (
	StatusCompleted  Status = "completed"
	StatusFailed     Status = "failed"
	StatusBlocked    Status = "blocked"
	StatusNeedsInput Status = "needs_input"
)

// Valid reports whether s is one of the four statuses of the contract.
func (s Status) Valid() bool {
	return slices.Contains([]Status{StatusCompleted, StatusFailed, StatusBlocked, StatusNeedsInput}, s)
}

// The questions of the contract live in agent/ask, which the MCP server
// shares without importing agent.
const (
	QuestionApproval = ask.QuestionApproval
	QuestionChoice   = ask.QuestionChoice
	QuestionFreeform = ask.QuestionFreeform
)

type (
	Option   = ask.Option
	Question = ask.Question
)

// Result is the contract every agent run must end with.
type Result struct {
	Status          Status     `json:"status"`
	Summary         string     `json:"summary"`
	Details         string     `json:"details,omitempty"`
	Question        string     `json:"question,omitempty"`
	QuestionContext string     `json:"questionContext,omitempty"`
	Questions       []Question `json:"questions,omitempty"`
	Issues          []string   `json:"issues,omitempty"`
	Confidence      *float64   `json:"confidence,omitempty"`
}

// ErrNoResult is wrapped by ParseResult when the text holds no result object.
var ErrNoResult = errors.New("no result object with a valid status")

// ParseResult reads an agent's answer: the whole text as a JSON object, or
// else the last JSON object inside it (fenced or bare) whose status is valid.
// It then normalises questions so that callers can rely on them, and caps
// each text field at ask.MaxTextBytes.
func ParseResult(text []byte) (Result, error) {
	r, _, err := parseResult(text)
	return r, err
}

// parseResult is ParseResult, with the object the result was read from.
func parseResult(text []byte) (Result, []byte, error) {
	objs := jsonObjects(text)
	var firstErr error
	for i := len(objs) - 1; i >= 0; i-- {
		r, err := decodeResult(objs[i])
		if err == nil {
			return r, objs[i], nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if firstErr != nil {
		return Result{}, nil, fmt.Errorf("%w: %w", ErrNoResult, firstErr)
	}
	return Result{}, nil, fmt.Errorf("%w in %s", ErrNoResult, snippet(text, 120))
}

// decodeResult decodes one object and checks and completes it. Fields are
// decoded one by one so that a wrongly typed optional field (say
// "confidence": "high") is dropped instead of losing the whole answer.
func decodeResult(obj []byte) (Result, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(obj, &raw); err != nil {
		return Result{}, fmt.Errorf("decode %s: %w", snippet(obj, 80), err)
	}
	fields := make(map[string]json.RawMessage, len(raw))
	for k, v := range raw {
		fields[strings.ToLower(k)] = v
	}
	var r Result
	var status string
	field(fields, "status", &status)
	r.Status = Status(strings.ReplaceAll(strings.ToLower(strings.TrimSpace(status)), "-", "_"))
	if !r.Status.Valid() {
		return Result{}, fmt.Errorf("invalid status %q", r.Status)
	}
	field(fields, "summary", &r.Summary)
	field(fields, "details", &r.Details)
	field(fields, "question", &r.Question)
	field(fields, "questioncontext", &r.QuestionContext)
	field(fields, "questions", &r.Questions)
	field(fields, "issues", &r.Issues)
	field(fields, "confidence", &r.Confidence)
	r.normalizeQuestions()
	if r.Status == StatusNeedsInput && r.Question == "" {
		return Result{}, errors.New("needs_input result without a question or summary")
	}
	r.capText()
	return r, nil
}

// field decodes fields[key] into dst, leaving dst alone if it does not fit.
func field[T any](fields map[string]json.RawMessage, key string, dst *T) {
	var v T
	if raw, ok := fields[key]; ok && json.Unmarshal(raw, &v) == nil {
		*dst = v
	}
}

// normalizeQuestions makes Question and Questions agree: a lone question
// becomes Questions[0], the first of several becomes Question, and a
// needs_input result with neither asks its summary.
func (r *Result) normalizeQuestions() {
	for i := range r.Questions {
		q := &r.Questions[i]
		q.Type = strings.ToLower(strings.TrimSpace(q.Type))
		if q.Type != QuestionApproval && (q.Type != QuestionChoice || len(q.Options) == 0) {
			q.Type = QuestionFreeform // any other type, and a choice without options
		}
	}
	if r.Question == "" && len(r.Questions) > 0 {
		r.Question = r.Questions[0].Question
	}
	if r.Question == "" && r.Status == StatusNeedsInput {
		r.Question = r.Summary
	}
	if r.Question != "" && len(r.Questions) == 0 {
		r.Questions = []Question{{Question: r.Question, Type: QuestionFreeform}}
	}
}

// capText applies ask.CapText to every text field of r.
func (r *Result) capText() {
	for _, p := range []*string{&r.Summary, &r.Details, &r.Question, &r.QuestionContext} {
		*p = ask.CapText(*p)
	}
	for i := range r.Issues {
		r.Issues[i] = ask.CapText(r.Issues[i])
	}
	for i := range r.Questions {
		q := &r.Questions[i]
		q.Question, q.Header, q.Default = ask.CapText(q.Question), ask.CapText(q.Header), ask.CapText(q.Default)
		for j := range q.Options {
			o := &q.Options[j]
			o.Label, o.Description = ask.CapText(o.Label), ask.CapText(o.Description)
		}
	}
}

// snippet shortens b for error messages.
func snippet(b []byte, n int) string {
	s := strings.TrimSpace(string(b))
	if len(s) > n {
		s = s[:n] + "..."
	}
	return fmt.Sprintf("%q", s)
}
