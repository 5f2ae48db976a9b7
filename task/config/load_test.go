package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLoadRefusesAtItsLine: a duration or a notify entry bh cannot use
// is refused when the config is read, with its file and line; good ones
// are read into their values there.
func TestLoadRefusesAtItsLine(t *testing.T) {
	for _, tt := range []struct{ name, yaml, err string }{
		{"bad lease", "prefix: tm\nlease: soon\n", `config.yaml:2: lease: "soon": want a positive duration`},
		{"bad agent timeout", "agent:\n  kind: claude\n  timeout: 0s\n", `config.yaml:3: agent.timeout: "0s"`},
		{"bad notify timeout", "notify:\n  - events: ['*']\n    command: 'true'\n    timeout: -1s\n",
			`config.yaml:4: notify entry 1: timeout "-1s" must be a positive duration`},
		{"unknown event", "notify:\n  - desktop: true\n    events: ['*']\n  - command: 'true'\n    events: [task.done]\n",
			`config.yaml:5: notify entry 2: unknown event "task.done"`},
		{"no target", "notify:\n  - events: ['*']\n", `config.yaml:2: notify entry 1: no command, webhook or desktop target`},
		{"no events", "notify:\n  - desktop: true\n", `config.yaml:2: notify entry 1: no events listed`},
		{"bad webhook", "notify:\n  - events: ['*']\n    webhook: ftp://example.com/x\n",
			`config.yaml:3: notify entry 1: webhook must be an http or https URL`},
		{"ntfy topic", "notify:\n  - events: ['*']\n    webhook: https://ntfy.sh/\n    format: ntfy\n",
			`config.yaml:3: notify entry 1: an ntfy webhook names its topic`},
		{"github priority", "github:\n  priority:\n    urgent: P0\n    later: P9\n",
			`config.yaml:4: github.priority.later: unknown priority "P9"`},
		{"github repo", "github:\n  repo: just-a-name\n", `config.yaml:2: github.repo: "just-a-name": want [HOST/]OWNER/REPO`},
		{"format without webhook", "notify:\n  - events: ['*']\n    desktop: true\n    format: slack\n",
			`config.yaml:4: notify entry 1: format "slack" shapes a webhook's body`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Load(writeConfig(t, tt.yaml)); err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("error %v, want one with %q", err, tt.err)
			}
		})
	}
	c, err := Load(writeConfig(t, "lease: 90s\nautoSync: 5m\nhumanTimeout: 1h\nagent:\n  timeout: 30m\n"+
		"notify:\n  - events: [task.failed]\n    webhook: https://ntfy.sh/bh\n    format: ntfy\n    timeout: 3s\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Lease.D != 90*time.Second || c.AutoSync.D != 5*time.Minute || c.HumanTimeout.D != time.Hour ||
		c.Agent.Timeout.D != 30*time.Minute || c.Notify[0].Timeout.D != 3*time.Second || c.Lease.String() != "90s" {
		t.Errorf("read %+v", c)
	}
}

func writeConfig(t *testing.T, yaml string) string {
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
