package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
)

const token = "secret-token-for-tests"

var now = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// site is bh serve over a repository with a task waiting on a choice, an
// approval and a question in words.
type site struct {
	t    testing.TB
	root string
	st   *store.Store
	srv  *Server
	ts   *httptest.Server
	base string // the task's page
	// timers are the undo windows started, run by elapse
	mu     sync.Mutex
	timers []*timer
}

// timer is an undo window's: it runs when the test says the time is up.
type timer struct {
	f             func()
	d             time.Duration // the window asked for
	stopped, done bool
}

// afterFunc is the servers' clock for undo windows: elapse ends them.
func (s *site) afterFunc(d time.Duration, f func()) func() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	tm := &timer{f: f, d: d}
	s.timers = append(s.timers, tm)
	return func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		was := !tm.stopped && !tm.done
		tm.stopped = true
		return was
	}
}

// elapse runs every undo window's end that is still due, as 10 seconds
// passing would.
func (s *site) elapse() {
	s.mu.Lock()
	var due []func()
	for _, t := range s.timers {
		if !t.stopped && !t.done {
			t.done = true
			due = append(due, t.f)
		}
	}
	s.mu.Unlock()
	for _, f := range due {
		f()
	}
}

func newSite(t testing.TB) *site {
	t.Helper()
	root := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	st, _, err := store.Init(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(st.Path("tm-ask1"), []byte(asking), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &site{t: t, root: root, st: st, base: "/r/" + config.RepoKey(root) + "/t/tm-ask1"}
	s.srv, err = New(Options{Token: token, By: "web:alice", Now: func() time.Time { return now },
		Repos:     func() ([]string, error) { return []string{root}, nil },
		AfterFunc: s.afterFunc})
	if err != nil {
		t.Fatal(err)
	}
	s.ts = httptest.NewServer(s.srv.Handler())
	t.Cleanup(s.ts.Close)
	return s
}

const asking = `id: tm-ask1
title: Set up the database
type: code
priority: P1
state: awaiting_input
questions:
  - id: q1
    question: Which database?
    type: choice
    options:
      - label: Postgres
        description: what production runs
      - label: SQLite
    status: pending
    askedAt: 2026-01-01T10:00:00Z
  - id: q2
    question: Approve this change and land it on main?
    type: approval
    gate: true
    context: "Added the schema.\n\n schema.sql | 12 ++++++++++++"
    status: pending
    askedAt: 2026-01-01T10:00:00Z
  - id: q3
    question: Anything else?
    type: freeform
    status: pending
    askedAt: 2026-01-01T10:00:00Z
createdAt: 2026-01-01T10:00:00Z
updatedAt: 2026-01-01T10:00:00Z
`

// do sends a request as a browser holding the cookie would, unless with
// says otherwise; it returns the response and its body.
func (s *site) do(method, path string, form url.Values, with func(r *http.Request)) (*http.Response, string) {
	s.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	r, err := http.NewRequest(method, s.ts.URL+path, body)
	if err != nil {
		s.t.Fatal(err)
	}
	if form != nil {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	r.AddCookie(&http.Cookie{Name: cookieName, Value: token})
	r.Header.Set("Origin", s.ts.URL)
	if with != nil {
		with(r)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(r)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// answer posts one question's form as the page would.
func (s *site) answer(fields url.Values, with func(r *http.Request)) (*http.Response, string) {
	s.t.Helper()
	if fields.Get("csrf") == "" {
		fields.Set("csrf", csrfValue(token))
	}
	return s.do("POST", s.base+"/answer", fields, with)
}

func (s *site) file() string {
	s.t.Helper()
	b, err := os.ReadFile(filepath.Join(s.root, ".bh", "tasks", "tm-ask1.yaml"))
	if err != nil {
		s.t.Fatal(err)
	}
	return string(b)
}

func (s *site) task() *task.Task {
	s.t.Helper()
	tk, err := s.st.Get("tm-ask1")
	if err != nil {
		s.t.Fatal(err)
	}
	return tk
}

func noCookie(r *http.Request) { r.Header.Del("Cookie") }
