package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// Responses is a fake OpenAI Responses API (POST /v1/responses) for driving
// the real Codex CLI: a CodexScript plays the model, and every request is
// recorded. Turns, parts and errors are the same as the Messages fake's; a
// tool part becomes a function_call item.
//
// What codex 0.169 does against it, found by experiment:
//
//   - one streaming POST /v1/responses per model turn, no other endpoint;
//   - the tools offered include exec_command ({"cmd": "..."}, run in the
//     sandbox from the working directory); apply_patch is not offered to a
//     model it has no metadata for, and a call of it is answered
//     "unsupported call";
//   - an MCP server's tools are offered as one tool of type "namespace"
//     named mcp__<server>, holding the server's functions; the model calls
//     one as a function_call with that namespace and the tool's own name
//     (MCP);
//   - --output-schema arrives as text.format {type json_schema, strict
//     true, name codex_output_schema}, on a resumed thread too;
//   - exec resume <thread> sends the whole earlier input (prompt, calls and
//     their outputs, the final message) followed by the new prompt.
type Responses struct {
	fake
	script CodexScript
	reqs   []*ResponsesRequest
}

// CodexScript decides the fake model's answer to each request.
type CodexScript func(req *ResponsesRequest) Turn

// CodexSequence answers the n-th request with turns[n-1], and with a short
// text once the turns run out.
func CodexSequence(turns ...Turn) CodexScript {
	return func(req *ResponsesRequest) Turn {
		if req.N <= len(turns) {
			return turns[req.N-1]
		}
		return Reply(Text("done"))
	}
}

// Exec calls codex's exec_command tool.
func Exec(cmd string) Part { return ToolUse("exec_command", map[string]string{"cmd": cmd}) }

// MCP calls tool of the MCP server named server, as codex offers it: in
// the namespace mcp__<server>.
func MCP(server, tool string, input any) Part {
	return Part{Tool: tool, Input: input, Namespace: "mcp__" + server}
}

// Final is a final message whose text is v as JSON, as a model bound by
// --output-schema answers.
func Final(v any) Part {
	b, _ := json.Marshal(v)
	return Text(string(b))
}

// NewResponses starts a server answering with script (nil: a short text to
// everything) and stops it at test cleanup.
func NewResponses(t testing.TB, script CodexScript) *Responses {
	t.Helper()
	if script == nil {
		script = func(*ResponsesRequest) Turn { return Reply(Text("ok")) }
	}
	s := &Responses{script: script}
	s.serveLocal(t, s.serve)
	return s
}

// Requests returns the requests received so far, in order.
func (s *Responses) Requests() []*ResponsesRequest { return locked(&s.mu, &s.reqs) }

func (s *Responses) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/responses" {
		s.recordOther(r)
		writeOpenAIError(w, http.StatusNotFound, "not_found", "fakeapi: no such endpoint "+r.URL.Path)
		return
	}
	body, err := readBody(r)
	var req *ResponsesRequest
	if err == nil {
		req, err = decodeResponsesRequest(body, r.Header)
	}
	if err != nil {
		s.t.Errorf("fakeapi: bad responses request: %v", err)
		writeOpenAIError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	if win := s.refuse(); win != nil {
		win.header(w.Header())
		// ChatGPT's backend says when the limit resets in the body too.
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"type": "usage_limit_reached",
			"message": "fakeapi: the usage window is exhausted", "plan_type": "plus",
			"resets_at": win.ResetsAt.Unix(), "resets_in_seconds": max(1, int(time.Until(win.ResetsAt).Seconds()))}})
		return
	}
	s.scriptMu.Lock()
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	req.N = len(s.reqs)
	s.mu.Unlock()
	turn := s.script(req)
	s.scriptMu.Unlock()
	s.t.Logf("fakeapi: responses #%d (%d input items) prompt %.80q -> %s", req.N, len(req.Input), req.Prompt(), turn)
	if !turn.delay(r, s.closed, func() {
		writeOpenAIError(w, http.StatusServiceUnavailable, "server_error", "fakeapi: server closed")
	}) {
		return
	}
	if turn.Status != 0 {
		writeOpenAIError(w, turn.Status, turn.ErrType, turn.ErrMsg)
		return
	}
	s.stream(w, req, turn)
}

// stream answers with the Responses API's event sequence: each part is an
// output item added and done, text arriving as deltas in between.
func (s *Responses) stream(w http.ResponseWriter, req *ResponsesRequest, turn Turn) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	if turn.Window != nil {
		turn.Window.header(w.Header())
	}
	w.WriteHeader(http.StatusOK)
	id := fmt.Sprintf("resp_fake%04d", req.N)
	event(w, "response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": id}})
	out := 0
	for i, p := range turn.Parts {
		n := s.next()
		var item map[string]any
		if p.Tool == "" {
			itemID := fmt.Sprintf("msg_fake%04d", n)
			item = map[string]any{"type": "message", "role": "assistant", "id": itemID, "content": []any{}}
			event(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": i, "item": item})
			half := len(p.Text) / 2
			for _, d := range []string{p.Text[:half], p.Text[half:]} {
				event(w, "response.output_text.delta", map[string]any{"type": "response.output_text.delta",
					"item_id": itemID, "output_index": i, "content_index": 0, "delta": d})
			}
			item = map[string]any{"type": "message", "role": "assistant", "id": itemID, "status": "completed",
				"content": []any{map[string]any{"type": "output_text", "text": p.Text, "annotations": []any{}}}}
			out += len(p.Text)
		} else {
			args, err := p.inputJSON()
			if err != nil {
				s.t.Errorf("fakeapi: marshal %s input: %v", p.Tool, err)
			}
			item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_fake%04d", n),
				"call_id": fmt.Sprintf("call_fake%04d", n), "name": p.Tool, "arguments": string(args)}
			if p.Namespace != "" {
				item["namespace"] = p.Namespace
			}
			event(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": i, "item": item})
			out += len(args)
		}
		event(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": i, "item": item})
	}
	in, outTokens := len(req.Body)/4+1, out/4+1
	if turn.Tokens > 0 {
		in, outTokens = turn.Tokens/2, turn.Tokens-turn.Tokens/2
	}
	event(w, "response.completed", map[string]any{"type": "response.completed", "response": map[string]any{"id": id,
		"usage": map[string]any{"input_tokens": in, "output_tokens": outTokens, "total_tokens": in + outTokens}}})
}

// writeOpenAIError answers in OpenAI's error shape.
func writeOpenAIError(w http.ResponseWriter, status int, errType, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"type": errType, "code": errType, "message": msg}})
}
