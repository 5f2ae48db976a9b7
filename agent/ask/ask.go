// Package ask is what an agent asks the human: the questions of the result
// contract, as the agent package parses them from a run's answer and the
// MCP server (agent/mcp) takes them from an ask_human call. It stands apart
// from agent so that agent/mcp needs no import of its parent; agent names
// the same types (agent.Question is ask.Question).
package ask

import (
	"fmt"
	"unicode/utf8"
)

// Question types; an empty type means freeform.
const (
	QuestionApproval = "approval"
	QuestionChoice   = "choice"
	QuestionFreeform = "freeform"
)

// Option is one answer offered by a choice question.
type Option struct {
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
}

// Question is one thing the agent asks the human; several may come at once.
type Question struct {
	Question    string   `json:"question"`
	Header      string   `json:"header,omitempty"`
	Type        string   `json:"type,omitempty"` // approval, choice or freeform
	Options     []Option `json:"options,omitempty"`
	MultiSelect bool     `json:"multiSelect,omitempty"`
	Default     string   `json:"default,omitempty"`
	// Tool is the permission rule a yes answer grants the next run (a
	// permission prompt turned question), such as "Bash(go test ./...)".
	Tool string `json:"tool,omitempty"`
}

// MaxTextBytes caps each text field of a parsed Result (summary, details,
// questions, options, issues): they end up in the task file, which should
// stay readable however much an agent writes. The full answer stays in the
// run log.
const MaxTextBytes = 8 << 10

// CapText returns s if it fits in MaxTextBytes, else its head cut on a
// UTF-8 boundary and followed by a marker saying how much was cut, the two
// together no longer than MaxTextBytes.
func CapText(s string) string {
	if len(s) <= MaxTextBytes {
		return s
	}
	// The marker for len(s) bytes is at least as long as the real one.
	n := MaxTextBytes - len(cutMarker(len(s)))
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + cutMarker(len(s)-n)
}

func cutMarker(n int) string {
	return fmt.Sprintf("\n… (cut: %d bytes more; see the run log)", n)
}
