package worker

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bh-tracker/bh/task"

	"github.com/bh-tracker/bh/task/config"
)

// TestOnceFlushesSlowWebhook: bh worker --once ends right after its run,
// while the webhook's first attempt is still waiting out its 6s timeout
// (longer than the worker used to wait; 2s under -short, still past the
// least wait of a second). The worker waits for the retry, which is
// delivered.
func TestOnceFlushesSlowWebhook(t *testing.T) {
	t.Parallel()
	var attempts, delivered atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if attempts.Add(1) == 1 {
			<-r.Context().Done() // never answers: the client gives up after its timeout
			return
		}
		delivered.Add(1)
	}))
	defer srv.Close()
	timeout := "6s"
	if testing.Short() {
		timeout = "2s"
	}
	s := newStore(t)
	s.Config.Notify = []config.NotifyConfig{{Events: []string{task.EventTaskCompleted}, Webhook: srv.URL, Timeout: config.ParseDuration(timeout)}}
	addTask(t, s, "Works")
	evs := runWith(t, s, Options{Runner: &fake{steps: []stepFn{step(map[string]string{"a.txt": "a\n"}, done("ok"))}}})
	if delivered.Load() != 1 || attempts.Load() != 2 {
		t.Fatalf("webhook: %d attempts, %d delivered; want the retry delivered before the worker returned",
			attempts.Load(), delivered.Load())
	}
	for _, e := range evs {
		if e.Kind == Warning {
			t.Errorf("warning: %s", e.Summary)
		}
	}
}

// TestOnceNamesUndelivered: a webhook that always fails gets every
// attempt before the worker returns, and the worker says what was not
// delivered.
func TestOnceNamesUndelivered(t *testing.T) {
	t.Parallel()
	var attempts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		attempts.Add(1)
		http.Error(w, "down", http.StatusBadGateway)
	}))
	defer srv.Close()
	s := newStore(t)
	s.Config.Notify = []config.NotifyConfig{{Events: []string{task.EventTaskCompleted}, Webhook: srv.URL}}
	tk := addTask(t, s, "Works")
	evs := runWith(t, s, Options{Runner: &fake{steps: []stepFn{step(map[string]string{"a.txt": "a\n"}, done("ok"))}}})
	if attempts.Load() != 3 {
		t.Errorf("%d attempts before the worker returned, want 3", attempts.Load())
	}
	var warned bool
	for _, e := range evs {
		warned = warned || e.Kind == Warning && strings.Contains(e.Summary, "task.completed for "+tk.ID) &&
			strings.Contains(e.Summary, "502")
	}
	if !warned {
		t.Fatalf("no warning naming the undelivered notification: %+v", evs)
	}
}
