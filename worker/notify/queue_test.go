package notify

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
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
	n.Send(Event{Name: EventTaskFailed, TaskID: "tm-1"})
	<-arrived // tm-1 in flight, so the queue is empty
	n.Send(Event{Name: EventTaskFailed, TaskID: "tm-2"})
	n.Send(Event{Name: EventTaskFailed, TaskID: "tm-3"})
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
	n.Send(Event{Name: EventTaskFailed, TaskID: "tm-1"})
	<-arrived
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := n.Close(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("close = %v, want context.Canceled", err)
	}
	// The in-flight request is cancelled: srv.Close would hang otherwise.
	srv.Close()
	if s := l.all(); s != "" {
		t.Errorf("abandoned delivery should not be logged as a failure: %s", s)
	}
}

// BenchmarkSend measures what the worker pays per event: filtering and
// queueing to three targets, with webhook delivery running behind it.
func BenchmarkSend(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	all := []string{AllEvents}
	n, err := newNotifier([]task.NotifyConfig{
		{Events: all, Webhook: srv.URL},
		{Events: []string{EventTaskFailed}, Webhook: srv.URL},
		{Events: all, Webhook: srv.URL},
	}, nil, tuning{queue: 1 << 20, attempts: 1})
	if err != nil {
		b.Fatal(err)
	}
	e := Event{Name: EventTaskCompleted, TaskID: "tm-1", Title: "bench", At: time.Now()}
	b.ReportAllocs()
	for b.Loop() {
		n.Send(e)
	}
	b.StopTimer()
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // drop the backlog: delivery speed is the receiver's, not bh's
	_ = n.Close(ctx)
}
