package cmd

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

// syncBuffer is a bytes.Buffer that a follower may write while the test
// reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls out until it holds want, or fails after 10 s (scaled).
func waitFor(t *testing.T, out *syncBuffer, want string) {
	t.Helper()
	for deadline := time.Now().Add(fakeapi.Patience(10 * time.Second)); !strings.Contains(out.String(), want); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in:\n%s", want, out)
		}
	}
}

func TestLogFollow(t *testing.T) {
	s := newTestStore(t)
	a, err := s.Create(&task.Task{Title: "First"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := new(syncBuffer)
	o := &LogOptions{base: base{IO: &IOStreams{Out: out, ErrOut: new(bytes.Buffer)},
		Store: func() (*store.Store, error) { return s, nil }, Now: s.Now}, Ctx: ctx, Follow: true}
	done := make(chan error, 1)
	go func() { done <- logRun(o) }()
	waitFor(t, out, a.ID+"\tcreated")

	// new events of a task, and a new task, each printed once
	if _, err := s.Update(a.ID, func(t *task.Task) error {
		return t.SetState(task.Deferred, s.Now(), "human", "later")
	}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, out, "open → deferred later · by you")
	b, err := s.Create(&task.Task{Title: "Second"})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, out, b.ID+"\tcreated")
	// a file rewritten with fewer events is shown afresh
	cur, _ := s.Get(a.ID)
	cur.History = cur.History[:1]
	if err := s.Put(cur); err != nil {
		t.Fatal(err)
	}
	waitFor(t, out, b.ID+"\tcreated\t→ open\n2026-01-01T12:00:00Z\t"+a.ID+"\tcreated")
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("follow ended with %v", err)
		}
	case <-time.After(fakeapi.Patience(10 * time.Second)):
		t.Fatal("follow did not end when its context did")
	}
	if n := strings.Count(out.String(), "open → deferred"); n != 1 {
		t.Errorf("the state change was printed %d times:\n%s", n, out)
	}
}
