package notify

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/bh-tracker/bh/task"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task/config"
)

func TestQueueFullDrops(t *testing.T) {
	arrived, release := make(chan string, 8), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var e Event
		_ = json.NewDecoder(r.Body).Decode(&e)
		arrived <- e.TaskID
		<-release
	}))
	defer srv.Close()
	n, l := start(t, tuning{queue: 1, attempts: 1}, hook(srv.URL, ""))
	n.Send(Event{Name: task.EventTaskFailed, TaskID: "tm-1"})
	<-arrived // tm-1 in flight, so the queue is empty
	n.Send(Event{Name: task.EventTaskFailed, TaskID: "tm-2"})
	n.Send(Event{Name: task.EventTaskFailed, TaskID: "tm-3"})
	if !strings.Contains(l.all(), "queue full, dropped task.failed for tm-3") {
		t.Errorf("drop not logged: %q", l.all())
	}
	close(release)
	closeNow(t, n)
	close(arrived)
	var rest []string
	for id := range arrived {
		rest = append(rest, id)
	}
	if strings.Join(rest, ",") != "tm-2" {
		t.Errorf("after tm-1 the server saw %v, want [tm-2]", rest)
	}
}

func TestCloseGivesUpWhenContextEnds(t *testing.T) {
	arrived := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // lets the server see the client hang up
		arrived <- struct{}{}
		<-r.Context().Done()
	}))
	defer srv.Close()
	n, l := start(t, fast, hook(srv.URL, "1h"))
	n.Send(Event{Name: task.EventTaskFailed, TaskID: "tm-1"})
	<-arrived
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := n.Close(ctx); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "task.failed for tm-1") {
		t.Fatalf("close = %v, want context.Canceled naming what was not delivered", err)
	}
	// The in-flight request is cancelled: srv.Close would hang otherwise.
	srv.Close()
	if s := l.all(); s != "" {
		t.Errorf("abandoned delivery should not be logged as a failure: %s", s)
	}
}

// TestFlushBound: while events wait, Flush counts them and bounds the
// wait by the target's whole retry schedule for each.
func TestFlushBound(t *testing.T) {
	arrived, release := make(chan struct{}, 4), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case arrived <- struct{}{}:
		default:
		}
		<-release
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	n, l := start(t, tuning{queue: 8, attempts: 3, backoff: time.Millisecond}, hook(srv.URL, "10s"))
	if p, b := n.Flush(); p != 0 || b != time.Second {
		t.Errorf("idle Flush = %d, %s; want 0, 1s", p, b)
	}
	n.Send(Event{Name: task.EventTaskFailed, TaskID: "tm-1"})
	n.Send(Event{Name: task.EventTaskFailed, TaskID: "tm-2"})
	<-arrived
	// Three attempts of 10s and waits of 1ms and 2ms, for each of two events.
	if p, b := n.Flush(); p != 2 || b != 2*(30*time.Second+3*time.Millisecond) {
		t.Errorf("Flush = %d, %s; want 2 events and twice one's worst", p, b)
	}
	close(release)
	closeNow(t, n)
	if got := l.all(); !strings.Contains(got, "task.failed for tm-2: attempt 3 of 3: status 503") {
		t.Errorf("log: %q", got)
	}
}

// BenchmarkSend measures what the worker pays per event: filtering and
// queueing to three targets, with webhook delivery running behind it.
func BenchmarkSend(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	all := []string{task.AllEvents}
	n, err := newNotifier([]config.NotifyConfig{
		{Events: all, Webhook: srv.URL},
		{Events: []string{task.EventTaskFailed}, Webhook: srv.URL},
		{Events: all, Webhook: srv.URL},
	}, nil, tuning{queue: 1 << 20, attempts: 1})
	if err != nil {
		b.Fatal(err)
	}
	e := Event{Name: task.EventTaskCompleted, TaskID: "tm-1", Title: "bench", At: time.Now()}
	b.ReportAllocs()
	for b.Loop() {
		n.Send(e)
	}
	b.StopTimer()
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // drop the backlog: delivery speed is the receiver's, not bh's
	_ = n.Close(ctx)
}
