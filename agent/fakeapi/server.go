package fakeapi

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Server is a fake Messages API listening on 127.0.0.1.
type Server struct {
	fake
	script   Script
	main     []*Request
	repeats  []*Request // main requests that asked an answered turn again
	lastTurn Turn       // how the last main request was answered
	side     []*Request
}

// fake is what the fake APIs share: the address, the lock over what they
// record, the requests to other endpoints.
type fake struct {
	URL string

	t        testing.TB
	closed   chan struct{} // ends delayed turns when the test is over
	scriptMu sync.Mutex    // serialises script calls so scripts need no locking
	mu       sync.Mutex
	other    []string
	seq      int // numbers the tool calls and output items

	exhausted time.Time // Exhaust's reset
	exhaustN  int       // requests left to refuse; -1: until the reset
	refused   int
}

// New starts a server that answers main-conversation requests with script
// (nil answers every request with a short text) and stops it at test cleanup.
func New(t testing.TB, script Script) *Server {
	t.Helper()
	if script == nil {
		script = func(*Request) Turn { return Reply(Text("ok")) }
	}
	s := &Server{script: script}
	s.serveLocal(t, s.serve)
	return s
}

// serveLocal serves h on 127.0.0.1 until the test ends, closing closed
// first so that delayed turns end.
func (f *fake) serveLocal(t testing.TB, h http.HandlerFunc) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("fakeapi: listen: %v", err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: h}}
	srv.Start()
	f.t, f.closed, f.URL = t, make(chan struct{}), srv.URL
	t.Cleanup(func() {
		close(f.closed)
		srv.Close()
	})
}

// recordOther keeps a request to another endpoint.
func (f *fake) recordOther(r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.other = append(f.other, r.Method+" "+r.URL.Path)
}

// next is the next number of a tool call or an output item.
func (f *fake) next() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seq++
	return f.seq
}

// Other returns "METHOD /path" for every request to another endpoint.
func (f *fake) Other() []string { return locked(&f.mu, &f.other) }

// locked is a copy of *list, taken under mu.
func locked[T any](mu *sync.Mutex, list *[]T) []T {
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(*list)
}

// delay holds a turn back for its Delay; false when the client hung up or
// the server closed meanwhile (then fail answers, if the client still waits).
func (turn Turn) delay(r *http.Request, closed <-chan struct{}, fail func()) bool {
	if turn.Delay <= 0 {
		return true
	}
	select {
	case <-time.After(turn.Delay):
		return true
	case <-r.Context().Done():
	case <-closed:
		fail()
	}
	return false
}

// Requests returns the main-conversation requests received so far, in
// order, each turn once: a request that repeats the one before it, after
// that one was answered, is the client asking the same turn again (claude
// falls back to a non-streamed request when a stream breaks), so it is
// answered as before and kept in Repeats instead.
func (s *Server) Requests() []*Request { return locked(&s.mu, &s.main) }

// Repeats returns the main requests that asked an answered turn again.
func (s *Server) Repeats() []*Request { return locked(&s.mu, &s.repeats) }

// SideRequests returns the tool-less helper calls claude made (titles, quota
// probes, small-model prompts), which were answered with a plain text.
func (s *Server) SideRequests() []*Request { return locked(&s.mu, &s.side) }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		s.messages(w, r)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		body, _ := readBody(r)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"input_tokens":%d}`, len(body)/4+1)
	default:
		s.recordOther(r)
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
	if win := s.refuse(); win != nil {
		win.header(w.Header())
		writeError(w, http.StatusTooManyRequests, "rate_limit_error", "fakeapi: the usage window is exhausted")
		return
	}
	if req.isMain() {
		turn = s.mainTurn(r, req)
	} else {
		s.mu.Lock()
		s.side = append(s.side, req)
		s.mu.Unlock()
		turn = Reply(Text("ok"))
	}
	if !turn.delay(r, s.closed, func() {
		writeError(w, http.StatusServiceUnavailable, "api_error", "fakeapi: server closed")
	}) {
		return
	}
	if turn.Status != 0 {
		writeError(w, turn.Status, turn.ErrType, turn.ErrMsg)
		return
	}
	if turn.Window != nil {
		turn.Window.header(w.Header())
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

// mainTurn answers a main-conversation request from the script, or, for
// a repeat of the turn answered last, as that turn was answered.
func (s *Server) mainTurn(r *http.Request, req *Request) Turn {
	s.scriptMu.Lock()
	defer s.scriptMu.Unlock()
	s.mu.Lock()
	if n := len(s.main); n > 0 && s.repeat(s.main[n-1], req) {
		req.N = n
		s.repeats = append(s.repeats, req)
		s.mu.Unlock()
		s.t.Logf("fakeapi: request #%d asked again (stream %t, x-stainless-retry-count %q) -> %s", req.N, req.Stream,
			r.Header.Get("X-Stainless-Retry-Count"), s.lastTurn)
		return s.lastTurn
	}
	s.main = append(s.main, req)
	req.N = len(s.main)
	s.mu.Unlock()
	turn := s.script(req)
	s.mu.Lock()
	s.lastTurn = turn
	s.mu.Unlock()
	s.t.Logf("fakeapi: request #%d (%d messages) prompt %.80q -> %s", req.N, len(req.Messages), req.Prompt(), turn)
	return turn
}

// repeat tells whether req asks again the turn prev asked, which was
// answered: the same messages in the same claude session.
func (s *Server) repeat(prev, req *Request) bool {
	const session = "X-Claude-Code-Session-Id"
	return s.lastTurn.Status == 0 && s.lastTurn.Delay == 0 && req.Header.Get(session) != "" &&
		req.Header.Get(session) == prev.Header.Get(session) && bytes.Equal(prev.msgs, req.msgs)
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
