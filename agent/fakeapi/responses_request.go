package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// ResponsesRequest is one decoded POST /v1/responses call as codex sent it.
type ResponsesRequest struct {
	N      int // 1-based position among requests
	Header http.Header
	Model  string
	Input  []Item
	Tools  []string        // function tool names, in the order codex declared them
	Format json.RawMessage // text.format: the --output-schema, if any
	Body   []byte
}

// Item is one entry of a request's input: a message, a function call or
// a call's output.
type Item struct {
	Type    string `json:"type"`
	Role    string `json:"role,omitempty"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content,omitempty"`
	Name      string          `json:"name,omitempty"`
	Arguments string          `json:"arguments,omitempty"`
	CallID    string          `json:"call_id,omitempty"`
	Output    json.RawMessage `json:"output,omitempty"`
}

// OutputText is a function_call_output's output as text.
func (it Item) OutputText() string {
	var s string
	if json.Unmarshal(it.Output, &s) == nil {
		return s
	}
	return string(it.Output)
}

func decodeResponsesRequest(body []byte, h http.Header) (*ResponsesRequest, error) {
	var raw struct {
		Model string                  `json:"model"`
		Input []Item                  `json:"input"`
		Tools []struct{ Name string } `json:"tools"`
		Text  struct {
			Format json.RawMessage `json:"format"`
		} `json:"text"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, fmt.Errorf("decode responses request: %w", err)
	}
	r := &ResponsesRequest{Header: h.Clone(), Model: raw.Model, Input: raw.Input, Format: raw.Text.Format, Body: body}
	for _, t := range raw.Tools {
		if t.Name != "" {
			r.Tools = append(r.Tools, t.Name)
		}
	}
	return r, nil
}

// UserTexts lists what the user said, oldest first, leaving out the
// <environment_context> and other tagged blocks codex injects.
func (r *ResponsesRequest) UserTexts() []string {
	var out []string
	for _, it := range r.Input {
		if it.Type != "message" || it.Role != "user" {
			continue
		}
		for _, c := range it.Content {
			if c.Type == "input_text" && !strings.HasPrefix(strings.TrimSpace(c.Text), "<") {
				out = append(out, c.Text)
			}
		}
	}
	return out
}

// Prompt is the latest user text.
func (r *ResponsesRequest) Prompt() string { return last(r.UserTexts()) }

// Calls lists the function calls of earlier turns.
func (r *ResponsesRequest) Calls() []Item { return r.items("function_call") }

// Outputs lists the outputs of earlier function calls.
func (r *ResponsesRequest) Outputs() []Item { return r.items("function_call_output") }

// AssistantTexts lists the model's earlier messages.
func (r *ResponsesRequest) AssistantTexts() []string {
	var out []string
	for _, it := range r.items("message") {
		for _, c := range it.Content {
			if it.Role == "assistant" && c.Type == "output_text" {
				out = append(out, c.Text)
			}
		}
	}
	return out
}

func (r *ResponsesRequest) items(typ string) []Item {
	var out []Item
	for _, it := range r.Input {
		if it.Type == typ {
			out = append(out, it)
		}
	}
	return out
}
