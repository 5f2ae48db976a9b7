package store

import (
	"reflect"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/internal/tasktest"
)

// A task re-read after a hand edit is the file's, whole: nothing of the
// version the cache held (questions, answers, a lease) stays behind.
func TestListSeesHandEditOverCache(t *testing.T) {
	s := newStore(t)
	writeStore(t, s, 20)
	full := tasktest.GenTask(1, 20) // awaiting, with a question and a session
	full.Lease = &task.Lease{Worker: "w", PID: 7, Host: "h"}
	full.AgentSettings = &task.AgentSettings{Model: "opus"}
	b, _ := task.Render(full, nil)
	writeFile(t, s.Path(full.ID), string(b))
	settle()
	listed(t, s, 20, 0)
	listed(t, s, 0, 0) // warm: the cache holds the full task

	bare := "id: " + full.ID + "\ntitle: edited by hand # a comment keeps yaml.v3 busy\ntype: code\npriority: P1\nstate: open\n"
	writeFile(t, s.Path(full.ID), bare)
	listed(t, s, 1, 0)
	for _, brief := range []bool{false, true} {
		tasks, _, _, err := s.list(brief)
		if err != nil {
			t.Fatal(err)
		}
		for _, tk := range tasks {
			if tk.ID == full.ID && (tk.Title != "edited by hand" || tk.Questions != nil || tk.Lease != nil ||
				tk.AgentSettings != nil || tk.SessionID != "" || tk.History != nil) {
				t.Fatalf("brief=%v: the edited task kept the cache's fields: %+v", brief, tk)
			}
		}
	}
}

// A cold brief listing gives what a warm one gives, and its cache serves
// full listings too.
func TestColdBriefListing(t *testing.T) {
	s := newStore(t)
	writeStore(t, s, 30)
	settle()
	cold, _, r, err := s.list(true)
	if err != nil || r.parsed != 30 || !r.saved {
		t.Fatalf("cold brief list: %+v, %v", r, err)
	}
	warm, _, r, _ := s.list(true)
	if r.parsed != 0 || !reflect.DeepEqual(cold, warm) {
		t.Fatalf("a warm brief listing differs from the cold one (%+v)", r)
	}
	listed(t, s, 0, 0) // full tasks, from the cache the brief listing wrote
	for _, tk := range cold {
		if len(tk.History) > 1 || strings.HasPrefix(tk.Title, " ") {
			t.Fatalf("brief task %s keeps %d events", tk.ID, len(tk.History))
		}
	}
}
