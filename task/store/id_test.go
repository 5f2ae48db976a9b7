package store

import (
	"errors"
	"os"
	"testing"

	"github.com/bh-tracker/bh/task"
)

func TestStoreResolve(t *testing.T) {
	s := newStore(t)
	for _, id := range []string{"tm-a1b2", "tm-a1c3", "tm-q7"} {
		writeFile(t, taskFile(s, id), "id: "+id+"\ntitle: x\ntype: code\npriority: P2\nstate: open\n")
	}
	for ref, want := range map[string]string{"tm-a1b2": "tm-a1b2", "A1C": "tm-a1c3", "q": "tm-q7", "tm-q7": "tm-q7"} {
		if got, err := s.Resolve(ref); err != nil || got != want {
			t.Errorf("Resolve(%q) = %q, %v", ref, got, err)
		}
	}
	var ae *task.AmbiguousError
	if _, err := s.Resolve("a1"); !errors.As(err, &ae) || len(ae.Candidates) != 2 {
		t.Errorf("Resolve(a1): %v", err)
	}
	// A file beside the store must not be reachable by a crafted ref.
	writeFile(t, s.Dir+"/evil.yaml", "id: evil\n")
	for _, ref := range []string{"../evil", "../../etc/passwd", "tasks/../x"} {
		var be *task.BadIDError
		if _, err := s.Resolve(ref); !errors.As(err, &be) {
			t.Errorf("Resolve(%q): want BadIDError, got %v", ref, err)
		}
		if _, err := s.Get(ref); !errors.As(err, &be) {
			t.Errorf("Get(%q): want BadIDError, got %v", ref, err)
		}
		if _, err := s.Update(ref, func(*task.Task) error { return nil }); !errors.As(err, &be) {
			t.Errorf("Update(%q): want BadIDError, got %v", ref, err)
		}
	}
	if _, err := os.Stat(s.Dir + "/locks/../evil.lock"); err == nil {
		t.Error("a lock was taken outside locks/")
	}
}
