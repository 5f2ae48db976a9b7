package notify

import (
	"encoding/json"
	"github.com/bh-tracker/bh/task"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task/config"
)

func hook(url, timeout string) config.NotifyConfig {
	return config.NotifyConfig{Events: []string{"*"}, Webhook: url, Timeout: config.ParseDuration(timeout)}
}

func TestWebhookPayload(t *testing.T) {
	var mu sync.Mutex
	var got map[string]any
	var ctype, method string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		ctype, method = r.Header.Get("Content-Type"), r.Method
		if err := json.NewDecoder(r.Body).Decode(&got); err != nil {
			t.Errorf("decode: %v", err)
		}
	}))
	defer srv.Close()
	n, l := start(t, fast, hook(srv.URL, ""))
	at := time.Date(2025, 5, 6, 7, 8, 9, 0, time.UTC)
	n.Send(Event{Name: task.EventInputRequested, TaskID: "tm-7", Title: "Add login", State: "awaiting_input",
		Question: "OAuth or password?", QuestionID: "q1", Summary: "scaffolded", At: at})
	closeNow(t, n) // Close must wait for the delivery, or got is empty
	mu.Lock()
	defer mu.Unlock()
	if method != http.MethodPost || ctype != "application/json" {
		t.Errorf("got %s with Content-Type %q", method, ctype)
	}
	want := map[string]any{"event": "input.requested", "taskId": "tm-7", "title": "Add login",
		"state": "awaiting_input", "question": "OAuth or password?", "questionId": "q1",
		"summary": "scaffolded", "at": "2025-05-06T07:08:09Z"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("payload %s = %v, want %v", k, got[k], v)
		}
	}
	if s := l.all(); s != "" {
		t.Errorf("unexpected log: %s", s)
	}
}

func TestWebhookRetries(t *testing.T) {
	for _, tc := range []struct {
		name     string
		statuses []int
		calls    int
		log      string // "" means no log line
	}{
		{"500 then success", []int{500, 503, 200}, 3, ""},
		{"429 then success", []int{429, 204}, 2, ""},
		{"no retry on 400", []int{400, 200}, 1, "attempt 1 of 3: status 400 Bad Request"},
		{"gives up after 3", []int{500, 500, 500, 200}, 3, "attempt 3 of 3: status 500 Internal Server Error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			calls := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				w.WriteHeader(tc.statuses[calls])
				calls++
			}))
			defer srv.Close()
			n, l := start(t, fast, hook(srv.URL+"/hooks/SECRET", ""))
			n.Send(Event{Name: task.EventTaskFailed, TaskID: "tm-1"})
			closeNow(t, n)
			mu.Lock()
			defer mu.Unlock()
			if calls != tc.calls {
				t.Errorf("server saw %d calls, want %d", calls, tc.calls)
			}
			s := l.all()
			if tc.log == "" && s != "" || !strings.Contains(s, tc.log) {
				t.Errorf("log %q, want %q", s, tc.log)
			}
			if strings.Contains(s, "SECRET") {
				t.Errorf("log leaks the webhook path: %s", s)
			}
		})
	}
}

func TestWebhookHangDoesNotBlock(t *testing.T) {
	arrived := make(chan struct{}, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // lets the server see the client hang up
		arrived <- struct{}{}
		<-r.Context().Done() // hang until the client gives up
	}))
	defer srv.Close()
	n, l := start(t, fast, hook(srv.URL, "50ms"))
	n.Send(Event{Name: task.EventTaskFailed, TaskID: "tm-1"})
	<-arrived // delivery is hanging, yet Send returned and takes more
	n.Send(Event{Name: task.EventTaskCompleted, TaskID: "tm-2"})
	closeNow(t, n)
	s := l.all()
	for _, want := range []string{
		"task.failed for tm-1: attempt 3 of 3: no answer within 50ms",
		"task.completed for tm-2: attempt 3 of 3: no answer within 50ms",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("log %q lacks %q", s, want)
		}
	}
}

func TestWebhookUnreachableLogsNoURLPath(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	n, l := start(t, fast, hook(url+"/hooks/SECRET", ""))
	n.Send(Event{Name: task.EventTaskFailed, TaskID: "tm-1"})
	closeNow(t, n)
	s := l.all()
	if !strings.Contains(s, "webhook "+url+": task.failed for tm-1: attempt 3 of 3") || strings.Contains(s, "SECRET") {
		t.Errorf("log %q should report 3 failed attempts without the URL path", s)
	}
}
