package worker

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/notify"
)

// realTimeout is the agent timeout of the configs of tests that run a
// real claude or codex: it bounds a failure, never a pass.
var realTimeout = config.ParseDuration(fakeapi.Patience(time.Minute).Round(time.Second).String())

// runWith runs a worker with opt (Once unless a Report-driven test says
// otherwise) and returns its events.
func runWith(t testing.TB, s *store.Store, opt Options) []Event {
	t.Helper()
	var mu sync.Mutex
	var evs []Event
	opt.Once = true
	opt.Report = func(e Event) { mu.Lock(); evs = append(evs, e); mu.Unlock() }
	ctx, cancel := context.WithTimeout(context.Background(), fakeapi.Patience(time.Minute))
	defer cancel()
	if err := Run(ctx, ctx, s, opt); err != nil {
		t.Fatalf("worker: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	return append([]Event(nil), evs...)
}

func update(t testing.TB, s *store.Store, id string, fn func(tk *task.Task)) *task.Task {
	t.Helper()
	tk, err := s.Update(id, func(tk *task.Task) error { fn(tk); return nil })
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

func count(tk *task.Task, kind string) int {
	n := 0
	for _, e := range tk.History {
		if e.Kind == kind {
			n++
		}
	}
	return n
}

func pendingOf(t testing.TB, tk *task.Task) task.Question {
	t.Helper()
	p := tk.Pending()
	if len(p) != 1 || p[0].ID == "" {
		t.Fatalf("%s: want one pending typed question, got %+v", tk.ID, p)
	}
	return p[0]
}

// hook is a local webhook receiver that keeps every notification.
type hook struct {
	mu     sync.Mutex
	events []notify.Event
	url    string
}

func newHook(t testing.TB) *hook {
	h := &hook{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var e notify.Event
		if err := json.NewDecoder(r.Body).Decode(&e); err != nil {
			t.Errorf("webhook body: %v", err)
		}
		h.mu.Lock()
		h.events = append(h.events, e)
		h.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	h.url = srv.URL
	return h
}

func (h *hook) config() config.NotifyConfig {
	return config.NotifyConfig{Events: []string{task.AllEvents}, Webhook: h.url}
}

// notifier returns a notifier posting to h; closing it (done) waits for
// every delivery, so that tests read the events without sleeping.
func (h *hook) notifier(t testing.TB) (n *notify.Notifier, done func()) {
	t.Helper()
	n, err := notify.New([]config.NotifyConfig{h.config()}, func(f string, a ...any) { t.Errorf("notify: "+f, a...) })
	if err != nil {
		t.Fatal(err)
	}
	return n, func() {
		ctx, cancel := context.WithTimeout(context.Background(), fakeapi.Patience(10*time.Second))
		defer cancel()
		if err := n.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// names lists the notifications received for id, in order.
func (h *hook) names(id string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, e := range h.events {
		if e.TaskID == id {
			out = append(out, e.Name)
		}
	}
	return out
}

func (h *hook) find(id, name string) (notify.Event, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, e := range h.events {
		if e.TaskID == id && e.Name == name {
			return e, true
		}
	}
	return notify.Event{}, false
}
