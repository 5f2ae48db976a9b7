package agent

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Takeover is an agent whose session a human can take over in a terminal
// (bh continue), and whose transcript tells whether they said anything.
type Takeover interface {
	TakeoverArgs(req Request) []string
	SessionFile(req Request) string
	// HumanTurns are the lines a person typed into the session, oldest
	// first, as its transcript file records them.
	HumanTurns(transcript []byte) []string
}

// Said is what a human typed in a takeover: the turns after's transcript
// has beyond before's. A session that failed to start, or that was left
// without a word, said nothing.
func Said(tk Takeover, before, after []byte) []string {
	old, now := tk.HumanTurns(before), tk.HumanTurns(after)
	if len(now) <= len(old) {
		return nil
	}
	return now[len(old):]
}

// HumanTurns reads claude's session file: a user entry whose content is
// text, not a tool result, a meta note (isMeta) or a slash command's echo
// (/exit leaves "<command-name>…" and "<local-command-stdout>…" entries).
func (c *Claude) HumanTurns(transcript []byte) []string {
	var out []string
	// Not a bufio.Scanner: a tool result can make one line larger than
	// any scanner buffer.
	for line := range bytes.SplitSeq(transcript, []byte("\n")) {
		var e struct {
			Type    string `json:"type"`
			IsMeta  bool   `json:"isMeta"`
			Summary bool   `json:"isCompactSummary"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(line, &e) != nil || e.Type != "user" || e.IsMeta || e.Summary {
			continue
		}
		text := userText(e.Message.Content)
		if t := strings.TrimSpace(text); t != "" && !strings.HasPrefix(t, "<command-") && !strings.HasPrefix(t, "<local-command-") {
			out = append(out, text)
		}
	}
	return out
}

// userText is a user message's text: a string, or its text blocks; a
// message holding a tool result is none of the human's.
func userText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct{ Type, Text string }
	json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		switch b.Type {
		case "tool_result":
			return ""
		case "text":
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// HumanTurns reads codex's rollout file: a user message whose content
// codex marks as the user's (provenance "user"), not the harness's
// environment and instructions; without those marks (an older codex), one
// whose text does not open with a tag such as <environment_context>.
func (c *Codex) HumanTurns(transcript []byte) []string {
	var out []string
lines:
	for line := range bytes.SplitSeq(transcript, []byte("\n")) {
		var e struct {
			Type    string `json:"type"`
			Payload struct {
				Type, Role string
				Content    []struct{ Type, Text string }
				Meta       struct {
					Items []struct {
						Provenance struct{ Type string } `json:"provenance"`
					} `json:"content_item_metadata"`
				} `json:"internal_chat_message_metadata_passthrough"`
			} `json:"payload"`
		}
		if json.Unmarshal(line, &e) != nil || e.Type != "response_item" || e.Payload.Type != "message" || e.Payload.Role != "user" {
			continue
		}
		for _, m := range e.Payload.Meta.Items {
			if m.Provenance.Type != "user" {
				continue lines
			}
		}
		var parts []string
		for _, b := range e.Payload.Content {
			if b.Type == "input_text" {
				parts = append(parts, b.Text)
			}
		}
		text := strings.Join(parts, "\n")
		if t := strings.TrimSpace(text); t != "" && (len(e.Payload.Meta.Items) > 0 || !strings.HasPrefix(t, "<")) {
			out = append(out, text)
		}
	}
	return out
}
