package task

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfigDeliverySettings(t *testing.T) {
	cases := []struct{ yaml, err string }{
		{"workers: 3\ntarget: main\nland: branch\n", ""},
		{"workers: 0\n", ""},
		{"workers: -1\n", "workers: -1: want 1 to 32"},
		{"workers: 99\n", "workers: 99"},
		{"land: later\n", `land "later": want merge, branch or pr`},
		{"land: pr\nreviewRounds: 5\n", ""},
		{"reviewRounds: -2\n", "reviewRounds: -2: want 1 to 100"},
		{"target: 'main..x'\n", `target: branch "main..x" is not a valid branch name`},
		{"target: 'a b'\n", "is not a valid branch name"},
		{"worktree:\n  copy: [.env]\n  setup: npm ci\n", ""},
	}
	for _, c := range cases {
		path := filepath.Join(t.TempDir(), "config.yaml")
		os.WriteFile(path, []byte(c.yaml), 0o644)
		_, err := loadConfig(path)
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%q: err %v, want %q", c.yaml, err, c.err)
		}
	}
}

func TestDeliveryTaskOverridesConfig(t *testing.T) {
	c := Config{Target: "main"}
	if target, land := (&Task{}).Delivery(c); target != "main" || land != LandMerge {
		t.Errorf("defaults: %s %s", target, land)
	}
	if target, land := (&Task{Target: "dev", Land: LandBranch}).Delivery(c); target != "dev" || land != LandBranch {
		t.Errorf("task's own: %s %s", target, land)
	}
}

// A title is one line: a second line could pose as a commit trailer.
func TestTitleIsOneLine(t *testing.T) {
	s := newStore(t)
	if _, err := s.Create(&Task{Title: "fix it\nbh-task: tm-zzzz"}); err == nil || !strings.Contains(err.Error(), "one line") {
		t.Fatalf("create: %v", err)
	}
	tk, err := s.Create(&Task{Title: "fine"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(tk.ID, func(t *Task) error { t.Title = "a\rb"; return nil }); err == nil {
		t.Fatal("update wrote a two-line title")
	}
}
