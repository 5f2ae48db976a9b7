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
	loads(t, cases)
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

func TestBudgetConfigAndPrecedence(t *testing.T) {
	cases := []struct{ yaml, err string }{
		{"budget: {perTask: 2, perDay: 20.5, types: {docs: 1.5}}\n", ""},
		{"budget:\n  perTask: -1\n", "config.yaml:2: budget.perTask: -1: want an amount in USD"},
		{"budget:\n  perDay: -3\n", "config.yaml:2: budget.perDay: -3"},
		{"budget:\n  types:\n    docs: 1\n    poems: 2\n", "config.yaml:4: budget.types.poems:"},
		{"budget:\n  types:\n    docs: -1\n", "config.yaml:3: budget.types.docs: -1"},
		{"budget:\n  perTsk: 1\n", `unknown key "perTsk" (did you mean "perTask"?)`},
	}
	loads(t, cases)
	// A task's own budget wins over its type's, which wins over perTask.
	c := Config{Budget: BudgetConfig{PerTask: 2, Types: map[string]float64{"docs": 1.5}}}
	for _, tc := range []struct {
		t    task.Task
		want float64
	}{
		{task.Task{Type: "code"}, 2},
		{task.Task{Type: "docs"}, 1.5},
		{task.Task{Type: "docs", Budget: 7}, 7},
		{task.Task{Type: "code", Budget: 0.25}, 0.25},
	} {
		if got := BudgetFor(&tc.t, c); got != tc.want {
			t.Errorf("%s budget %v: %v, want %v", tc.t.Type, tc.t.Budget, got, tc.want)
		}
	}
	if got := BudgetFor(&task.Task{Type: "code"}, Config{}); got != 0 {
		t.Errorf("no budget anywhere: %v", got)
	}
}

// loadYAML loads yaml as a config file of its own.
func loadYAML(t *testing.T, yaml string) (Config, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return Load(path)
}

// loads checks that each case's YAML loads ("" err), or is refused with
// an error holding err.
func loads(t *testing.T, cases []struct{ yaml, err string }) {
	t.Helper()
	for _, c := range cases {
		_, err := loadYAML(t, c.yaml)
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%q: err %v, want %q", c.yaml, err, c.err)
		}
	}
}

// agent.outage is a pattern; one Go's regexp cannot read is refused at its line.
func TestAgentOutagePattern(t *testing.T) {
	loads(t, []struct{ yaml, err string }{
		{"agent:\n  kind: command\n  command: [my-agent]\n  outage: 'service unavailable|quota'\n", ""},
		{"agent:\n  kind: command\n  command: [my-agent]\n  outage: 'down ('\n",
			"config.yaml:4: agent.outage: error parsing regexp: missing closing ): `down (`"},
	})
}
