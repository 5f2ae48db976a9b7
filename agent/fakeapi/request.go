package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// Request is one decoded POST /v1/messages call as claude sent it.
type Request struct {
	N         int // 1-based position among main-conversation requests; 0 for side requests
	Header    http.Header
	Model     string
	MaxTokens int
	Stream    bool
	System    json.RawMessage
	Messages  []Message
	Tools     []string // tool names, in the order claude declared them
	Body      []byte   // the raw request body

	msgs json.RawMessage // the messages as sent, to tell a turn asked again
}

// Message is one conversation entry; string content is normalised to one text block.
type Message struct {
	Role    string  `json:"role"`
	Content []Block `json:"-"`
}

// Block is a content block of any type claude sends or we sent back to it.
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"` // tool_result payload: string or blocks
	IsError   bool            `json:"is_error,omitempty"`
}

func (m *Message) UnmarshalJSON(data []byte) error {
	var raw struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	m.Role = raw.Role
	blocks, err := decodeContent(raw.Content)
	m.Content = blocks
	return err
}

// decodeContent accepts the two shapes the API allows: a string or a block list.
func decodeContent(raw json.RawMessage) ([]Block, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []Block{{Type: "text", Text: s}}, nil
	}
	var blocks []Block
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return nil, fmt.Errorf("decode content: %w", err)
	}
	return blocks, nil
}

// ResultText flattens a tool_result block's content to text.
func (b Block) ResultText() string {
	blocks, err := decodeContent(b.Content)
	if err != nil {
		return string(b.Content)
	}
	var parts []string
	for _, c := range blocks {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "\n")
}

func decodeRequest(body []byte, h http.Header) (*Request, error) {
	var raw struct {
		Model     string                  `json:"model"`
		MaxTokens int                     `json:"max_tokens"`
		Stream    bool                    `json:"stream"`
		System    json.RawMessage         `json:"system"`
		Messages  []Message               `json:"messages"`
		Tools     []struct{ Name string } `json:"tools"`
	}
	var msgs struct {
		Messages json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, fmt.Errorf("decode messages request: %w", err)
	}
	json.Unmarshal(body, &msgs) // cannot fail where the decode above did not
	r := &Request{Header: h.Clone(), Model: raw.Model, MaxTokens: raw.MaxTokens, Stream: raw.Stream,
		System: raw.System, Messages: raw.Messages, Body: body, msgs: msgs.Messages}
	for _, t := range raw.Tools {
		r.Tools = append(r.Tools, t.Name)
	}
	return r, nil
}

// isMain tells the agent's own conversation from claude's side calls: only the
// main loop (and sub-agents, which bh never scripts) declares tools; title
// generation, quota probes and small-model helpers send none.
func (r *Request) isMain() bool { return len(r.Tools) > 0 && r.MaxTokens > 1 }

// HasTool reports whether claude offered the named tool in this request.
func (r *Request) HasTool(name string) bool { return slices.Contains(r.Tools, name) }

// UserTexts lists the text the user side said, oldest first, leaving out the
// <system-reminder> blocks claude injects.
func (r *Request) UserTexts() []string {
	var out []string
	for _, m := range r.Messages {
		if m.Role != "user" {
			continue
		}
		for _, b := range m.Content {
			if b.Type == "text" && !strings.HasPrefix(strings.TrimSpace(b.Text), "<system-reminder>") {
				out = append(out, b.Text)
			}
		}
	}
	return out
}

// Prompt is the latest user text: the prompt of the current run, or what
// claude itself appended (such as its structured-output reminder).
func (r *Request) Prompt() string { return last(r.UserTexts()) }

// last is the last of texts, "" for none.
func last(texts []string) string {
	if len(texts) == 0 {
		return ""
	}
	return texts[len(texts)-1]
}

// ToolUses lists every tool call the assistant made earlier in the conversation.
func (r *Request) ToolUses() []Block {
	var out []Block
	for _, m := range r.Messages {
		for _, b := range m.Content {
			if m.Role == "assistant" && b.Type == "tool_use" {
				out = append(out, b)
			}
		}
	}
	return out
}

// ToolResults lists the tool results carried by the last message, that is the
// answers to the tool calls of the previous turn.
func (r *Request) ToolResults() []Block {
	if len(r.Messages) == 0 {
		return nil
	}
	var out []Block
	for _, b := range r.Messages[len(r.Messages)-1].Content {
		if b.Type == "tool_result" {
			out = append(out, b)
		}
	}
	return out
}
