package fakeapi

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Script decides the fake model's answer to each main-conversation request.
// The server calls it with one request at a time.
type Script func(req *Request) Turn

// Turn is one reply of the fake model: content parts, or an API error.
type Turn struct {
	Parts []Part
	// Status, when non-zero, makes the server answer with this HTTP error
	// status and an Anthropic error body instead of a message.
	Status  int
	ErrType string
	ErrMsg  string
	// Delay holds the answer back, as a slow model would; the wait ends
	// early when claude hangs up.
	Delay time.Duration
	// Tokens, when non-zero, is the usage both fakes report for the turn
	// in place of their estimate (a token per four bytes), half input,
	// half output: a test that sends megabytes keeps codex from
	// compacting its thread, and a large count drives a run's spend.
	Tokens int
	// Window, when set, is reported in the answer's rate-limit headers
	// (see Warn; Exhaust refuses requests instead).
	Window *Window
}

// Part is a content block of a reply: text, or a tool call.
type Part struct {
	Text  string
	Tool  string // tool name; empty for a text part
	Input any    // tool input, marshalled to JSON
	// Namespace is the Responses API namespace of the tool (codex offers
	// an MCP server's tools in one, "mcp__<server>"); empty for none.
	Namespace string
}

// Reply builds a turn from parts.
func Reply(parts ...Part) Turn { return Turn{Parts: parts} }

// Fail builds a turn answered with an HTTP error, such as 500 "api_error" or
// 529 "overloaded_error".
func Fail(status int, errType, msg string) Turn {
	return Turn{Status: status, ErrType: errType, ErrMsg: msg}
}

// Hang is a turn that never answers while claude waits for it.
func Hang() Turn { return Turn{Delay: 24 * time.Hour} }

// Text is a plain text block.
func Text(s string) Part { return Part{Text: s} }

// ToolUse is a call of any tool with the given input.
func ToolUse(name string, input any) Part { return Part{Tool: name, Input: input} }

// Write calls claude's Write tool; path may be relative to claude's cwd.
func Write(path, content string) Part {
	return ToolUse("Write", map[string]string{"file_path": path, "content": content})
}

// Bash calls claude's Bash tool.
func Bash(command string) Part {
	return ToolUse("Bash", map[string]string{"command": command, "description": "run " + command})
}

// StructuredOutput calls the tool claude adds for --json-schema; v becomes
// the run's structured_output.
func StructuredOutput(v any) Part { return ToolUse("StructuredOutput", v) }

// Sequence answers the n-th main request with turns[n-1] and with a short
// text once the turns run out.
func Sequence(turns ...Turn) Script {
	return func(req *Request) Turn {
		if req.N <= len(turns) {
			return turns[req.N-1]
		}
		return Reply(Text("done"))
	}
}

func (p Part) inputJSON() ([]byte, error) {
	if raw, ok := p.Input.(json.RawMessage); ok {
		return raw, nil
	}
	if p.Input == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(p.Input)
}

// String summarises a turn for logs.
func (t Turn) String() string {
	if t.Delay > 0 {
		return fmt.Sprintf("delay %s then %s", t.Delay, Turn{Parts: t.Parts, Status: t.Status, ErrType: t.ErrType})
	}
	if t.Status != 0 {
		return fmt.Sprintf("HTTP %d %s", t.Status, t.ErrType)
	}
	var parts []string
	for _, p := range t.Parts {
		if p.Tool != "" {
			parts = append(parts, p.Tool)
		} else {
			parts = append(parts, fmt.Sprintf("text %.40q", p.Text))
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
