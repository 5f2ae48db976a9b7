package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
)

func TestConfigDeliverySettings(t *testing.T) {
	cases := []struct{ yaml, err string }{
		{"workers: 3\ntarget: main\nland: branch\n", ""},
		{"workers: 0\n", ""},
		{"workers: -1\n", "workers: -1: want 1 to 32"},
		{"workers: 99\n", "workers: 99"},
		{"land: later\n", `land "later": want merge, branch or pr`},
		{"land: pr\nreviewRounds: 5\n", ""},
		{"reviewRounds: -2\n", "reviewRounds: -2: want 1 to 20"},
		{"target: 'main..x'\n", `target: branch "main..x" is not a valid branch name`},
		{"target: 'a b'\n", "is not a valid branch name"},
		{"worktree:\n  copy: [.env]\n  setup: npm ci\n", ""},
	}
	for _, c := range cases {
		path := filepath.Join(t.TempDir(), "config.yaml")
		os.WriteFile(path, []byte(c.yaml), 0o644)
		_, err := Load(path)
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%q: err %v, want %q", c.yaml, err, c.err)
		}
	}
}

func TestDeliveryTaskOverridesConfig(t *testing.T) {
	c := Config{Target: "main"}
	if target, land := Delivery(&task.Task{}, c); target != "main" || land != task.LandMerge {
		t.Errorf("defaults: %s %s", target, land)
	}
	if target, land := Delivery(&task.Task{Target: "dev", Land: task.LandBranch}, c); target != "dev" || land != task.LandBranch {
		t.Errorf("task's own: %s %s", target, land)
	}
}
