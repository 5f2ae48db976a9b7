package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// build turns a scripted turn into the assistant message and its content
// blocks; any tool call makes the stop reason tool_use, as with the real API.
func (s *Server) build(req *Request, turn Turn) (message, []any, error) {
	stop := "end_turn"
	var blocks []any
	out := 0
	for _, p := range turn.Parts {
		if p.Tool == "" {
			blocks = append(blocks, textBlock{Type: "text", Text: p.Text})
			out += len(p.Text)
			continue
		}
		input, err := p.inputJSON()
		if err != nil {
			return message{}, nil, fmt.Errorf("marshal %s input: %w", p.Tool, err)
		}
		id := fmt.Sprintf("toolu_fake%04d", s.next())
		blocks = append(blocks, toolBlock{Type: "tool_use", ID: id, Name: p.Tool, Input: input})
		out += len(input)
		stop = "tool_use"
	}
	msg := message{ID: fmt.Sprintf("msg_fake%04d", req.N), Type: "message", Role: "assistant", Model: req.Model,
		StopReason: &stop, Usage: usage{InputTokens: len(req.Body)/4 + 1, OutputTokens: out/4 + 1}}
	if turn.Tokens > 0 {
		msg.Usage = usage{InputTokens: turn.Tokens / 2, OutputTokens: turn.Tokens - turn.Tokens/2}
	}
	return msg, blocks, nil
}

// message is the non-streaming form of a reply, and the skeleton the
// streaming events are cut from.
type message struct {
	ID           string            `json:"id"`
	Type         string            `json:"type"`
	Role         string            `json:"role"`
	Model        string            `json:"model"`
	Content      []json.RawMessage `json:"content"`
	StopReason   *string           `json:"stop_reason"`
	StopSequence *string           `json:"stop_sequence"`
	Usage        usage             `json:"usage"`
}

type usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

type toolBlock struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// writeJSONReply answers a non-streaming request with the whole message.
func writeJSONReply(w http.ResponseWriter, msg message, blocks []any) {
	for _, b := range blocks {
		raw, _ := json.Marshal(b)
		msg.Content = append(msg.Content, raw)
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(msg)
}

// writeStream answers with the SSE event sequence of the Messages API: text
// arrives as text_delta, tool input as input_json_delta split in two chunks
// so claude's partial-JSON assembly is exercised.
func writeStream(w http.ResponseWriter, msg message, blocks []any) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	stop := msg.StopReason
	msg.StopReason = nil
	msg.Content = []json.RawMessage{}
	outTokens := msg.Usage.OutputTokens
	msg.Usage.OutputTokens = 1
	event(w, "message_start", map[string]any{"type": "message_start", "message": msg})
	for i, b := range blocks {
		switch b := b.(type) {
		case textBlock:
			event(w, "content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": textBlock{Type: "text", Text: ""}})
			event(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]string{"type": "text_delta", "text": b.Text}})
		case toolBlock:
			event(w, "content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": toolBlock{Type: "tool_use", ID: b.ID, Name: b.Name, Input: json.RawMessage("{}")}})
			half := len(b.Input) / 2
			for _, chunk := range []json.RawMessage{b.Input[:half], b.Input[half:]} {
				event(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
					"delta": map[string]string{"type": "input_json_delta", "partial_json": string(chunk)}})
			}
		}
		event(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	event(w, "message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": outTokens}})
	event(w, "message_stop", map[string]string{"type": "message_stop"})
}

func event(w http.ResponseWriter, name string, data any) {
	raw, _ := json.Marshal(data)
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, raw)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// writeError answers in the API's error shape.
func writeError(w http.ResponseWriter, status int, errType, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"type": "error",
		"error": map[string]string{"type": errType, "message": msg}})
}
