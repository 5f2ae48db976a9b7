// Package fakeapi is a fake Anthropic Messages API for driving the real
// Claude Code CLI in tests: a script plays the model, and every request is
// recorded so tests can assert what claude sent.
package fakeapi

import (
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Server is a fake Messages API listening on 127.0.0.1.
type Server struct {
	URL string

	t      testing.TB
	http   *httptest.Server
	script Script

	scriptMu sync.Mutex // serialises script calls so scripts need no locking
	mu       sync.Mutex
	main     []*Request
	side     []*Request
	other    []string
	toolSeq  int
}

// New starts a server that answers main-conversation requests with script
// (nil answers every request with a short text) and stops it at test cleanup.
func New(t testing.TB, script Script) *Server {
	t.Helper()
	if script == nil {
		script = func(*Request) Turn { return Reply(Text("ok")) }
	}
	s := &Server{t: t, script: script}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("fakeapi: listen: %v", err)
	}
	s.http = &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(s.serve)}}
	s.http.Start()
	s.URL = s.http.URL
	t.Cleanup(s.http.Close)
	return s
}

// Requests returns the main-conversation requests received so far, in order.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.main...)
}

// SideRequests returns the tool-less helper calls claude made (titles, quota
// probes, small-model prompts), which were answered with a plain text.
func (s *Server) SideRequests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.side...)
}

// Other returns "METHOD /path" for every request to another endpoint.
func (s *Server) Other() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.other...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		s.messages(w, r)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		body, _ := readBody(r)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"input_tokens":%d}`, len(body)/4+1)
	default:
		s.mu.Lock()
		s.other = append(s.other, r.Method+" "+r.URL.Path)
		s.mu.Unlock()
		if r.URL.Path == "/api/hello" { // claude's connectivity probe
			w.WriteHeader(http.StatusOK)
			return
		}
		writeError(w, http.StatusNotFound, "not_found_error", "fakeapi: no such endpoint "+r.URL.Path)
	}
}

func (s *Server) messages(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(r)
	if err == nil {
		var req *Request
		if req, err = decodeRequest(body, r.Header); err == nil {
			s.answer(w, r, req)
			return
		}
	}
	s.t.Errorf("fakeapi: bad messages request: %v", err)
	writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request, req *Request) {
	var turn Turn
	if req.isMain() {
		s.scriptMu.Lock()
		s.mu.Lock()
		s.main = append(s.main, req)
		req.N = len(s.main)
		s.mu.Unlock()
		turn = s.script(req)
		s.scriptMu.Unlock()
		s.t.Logf("fakeapi: request #%d (%d messages) prompt %.80q -> %s", req.N, len(req.Messages), req.Prompt(), turn)
	} else {
		s.mu.Lock()
		s.side = append(s.side, req)
		s.mu.Unlock()
		turn = Reply(Text("ok"))
	}
	if turn.Delay > 0 {
		select {
		case <-time.After(turn.Delay):
		case <-r.Context().Done():
			return
		}
	}
	if turn.Status != 0 {
		writeError(w, turn.Status, turn.ErrType, turn.ErrMsg)
		return
	}
	msg, blocks, err := s.build(req, turn)
	if err != nil {
		s.t.Errorf("fakeapi: %v", err)
		writeError(w, http.StatusInternalServerError, "api_error", err.Error())
		return
	}
	if req.Stream {
		writeStream(w, msg, blocks)
	} else {
		writeJSONReply(w, msg, blocks)
	}
}

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
		s.mu.Lock()
		s.toolSeq++
		id := fmt.Sprintf("toolu_fake%04d", s.toolSeq)
		s.mu.Unlock()
		blocks = append(blocks, toolBlock{Type: "tool_use", ID: id, Name: p.Tool, Input: input})
		out += len(input)
		stop = "tool_use"
	}
	msg := message{ID: fmt.Sprintf("msg_fake%04d", req.N), Type: "message", Role: "assistant", Model: req.Model,
		StopReason: &stop, Usage: usage{InputTokens: len(req.Body)/4 + 1, OutputTokens: out/4 + 1}}
	return msg, blocks, nil
}

func readBody(r *http.Request) ([]byte, error) {
	var rd io.Reader = r.Body
	if strings.Contains(r.Header.Get("Content-Encoding"), "gzip") {
		gz, err := gzip.NewReader(r.Body)
		if err != nil {
			return nil, fmt.Errorf("gunzip body: %w", err)
		}
		rd = gz
	}
	return io.ReadAll(rd)
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
