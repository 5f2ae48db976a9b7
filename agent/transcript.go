package agent

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Entry is one step of a conversation, for a human to read.
type Entry struct {
	Role string `json:"role"` // user, assistant, tool, result
	Text string `json:"text"`
}

// Transcript reads claude's stream-json output into a conversation, tool
// calls summarized. Lines that are not stream events are kept as they are,
// so any agent's output reads.
func Transcript(stdout []byte) []Entry {
	var out []Entry
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(nil, MaxOutputBytes)
	for sc.Scan() {
		line := sc.Bytes()
		var e struct {
			Type    string `json:"type"`
			Subtype string `json:"subtype"`
			Result  string `json:"result"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(line, &e) != nil || e.Type == "" {
			if s := strings.TrimSpace(string(line)); s != "" {
				out = append(out, Entry{Role: "output", Text: s})
			}
			continue
		}
		switch e.Type {
		case "user", "assistant":
			out = append(out, contentEntries(e.Type, e.Message.Content)...)
		case "result":
			out = append(out, Entry{Role: "result", Text: strings.TrimSpace(e.Subtype + " " + firstLine(e.Result))})
		case "item.completed", "turn.failed", "error":
			out = append(out, codexEntries(line)...)
		}
	}
	return out
}

func contentEntries(role string, raw json.RawMessage) []Entry {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return []Entry{{Role: role, Text: text}}
	}
	var blocks []struct {
		Type    string          `json:"type"`
		Text    string          `json:"text"`
		Name    string          `json:"name"`
		Input   map[string]any  `json:"input"`
		Content json.RawMessage `json:"content"`
		IsError bool            `json:"is_error"`
	}
	json.Unmarshal(raw, &blocks)
	var out []Entry
	for _, b := range blocks {
		switch b.Type {
		case "text":
			out = append(out, Entry{Role: role, Text: b.Text})
		case "tool_use":
			out = append(out, Entry{Role: "tool", Text: "→ " + stepText(b.Name, b.Input)})
		case "tool_result":
			var s string
			if json.Unmarshal(b.Content, &s) != nil {
				s = string(b.Content)
			}
			mark := "← "
			if b.IsError {
				mark = "← error: "
			}
			out = append(out, Entry{Role: "tool", Text: mark + firstLine(s)})
		}
	}
	return out
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 200 {
		s = s[:197] + "..."
	}
	return s
}

// codexEntries reads one of codex's --json events.
func codexEntries(line []byte) []Entry {
	var e codexEvent
	json.Unmarshal(line, &e)
	switch {
	case e.Type == "turn.failed":
		return []Entry{{Role: "result", Text: "error " + firstLine(e.Error.Message)}}
	case e.Type == "error":
		return []Entry{{Role: "result", Text: "error " + firstLine(e.Message)}}
	case e.Item.Type == "agent_message":
		return []Entry{{Role: "assistant", Text: e.Item.Text}}
	case e.Item.Type == "command_execution":
		text := "→ " + codexStep(e.Item)
		if e.Item.ExitCode != nil && *e.Item.ExitCode != 0 {
			text += fmt.Sprintf(" (exit %d)", *e.Item.ExitCode)
		}
		return []Entry{{Role: "tool", Text: text}}
	case codexStep(e.Item) != "":
		return []Entry{{Role: "tool", Text: "→ " + codexStep(e.Item)}}
	}
	return nil
}
