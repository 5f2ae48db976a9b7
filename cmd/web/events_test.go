package web

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
)

// stream opens the site's event stream, with live updates on, and returns
// a function that waits for its next line starting with prefix.
func (s *site) stream() func(prefix string, within time.Duration) string {
	t := s.t
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := s.srv.Watch(ctx); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequestWithContext(ctx, "GET", s.ts.URL+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	lines := make(chan string, 100)
	go func() {
		defer close(lines)
		for sc := bufio.NewScanner(resp.Body); sc.Scan(); {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	return func(prefix string, within time.Duration) string {
		t.Helper()
		deadline := time.After(fakeapi.Patience(within))
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the stream ended before %q", prefix)
				}
				if strings.HasPrefix(l, prefix) {
					return l
				}
			case <-deadline:
				t.Fatalf("no %q within %v", prefix, within)
			}
		}
	}
}

// A task written by another process reaches an open event stream (how
// fast: BenchmarkEventLatency).
func TestEvents(t *testing.T) {
	s := newSite(t)
	next := s.stream()
	next("event: ready", 5*time.Second)
	start := time.Now()
	if _, _, err := s.st.Answer("tm-ask1", []task.Answer{{QuestionID: "q1", Values: []string{"SQLite"}}}, "human"); err != nil {
		t.Fatal(err)
	}
	next("event: change", time.Second)
	data := next("data: ", time.Second)
	t.Logf("a task's change reached the stream after %v", time.Since(start))
	if want := `data: {"repos":["` + config.RepoKey(s.root) + `"]}`; data != want {
		t.Errorf("%s, want %s", data, want)
	}
}

// A repository registered while bh serve runs is watched from then on.
func TestEventsNewRepository(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	s := newSite(t)
	config.Register(s.root)
	s.srv.o.Repos = config.Registered
	next := s.stream()
	next("event: ready", 5*time.Second)

	root := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	st, _, err := store.Init(root)
	if err != nil {
		t.Fatal(err)
	}
	config.Register(root)
	next("event: change", time.Second)
	if data := next("data: ", time.Second); data != `data: {"repos":["*"]}` { // every page reads again
		t.Errorf("the registry changed: %s", data)
	}
	if err := os.WriteFile(filepath.Join(st.Dir, "tasks", "tm-new1.yaml"), []byte(strings.ReplaceAll(asking, "tm-ask1", "tm-new1")), 0o644); err != nil {
		t.Fatal(err)
	}
	next("event: change", time.Second)
	if data, want := next("data: ", time.Second), `data: {"repos":["`+config.RepoKey(root)+`"]}`; data != want {
		t.Errorf("a task of the new repository: %s, want %s", data, want)
	}
}

// BenchmarkEventLatency: from a task file written by another writer to
// the change event on an open /events stream (the page then reads the
// inbox again). The issue asks for under a second.
func BenchmarkEventLatency(b *testing.B) {
	s := newSite(b)
	next := s.stream()
	next("event: ready", 5*time.Second)
	for i := 0; b.Loop(); i++ {
		if _, err := s.st.Update("tm-ask1", func(t *task.Task) error {
			t.Description = fmt.Sprint("change ", i)
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		next("event: change", 5*time.Second)
		next("data: ", time.Second)
	}
}
