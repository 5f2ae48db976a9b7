package config

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
)

func TestSandboxConfig(t *testing.T) {
	for _, tt := range []struct {
		name, yaml string
		want       SandboxConfig
		err        string // a part of the error
	}{
		{"absent", "prefix: tm\n", SandboxConfig{}, ""},
		{"a mode alone", "prefix: tm\nsandbox: required\n", SandboxConfig{Mode: task.SandboxRequired}, ""},
		{"off is a word, not a yes/no", "sandbox: off\n", SandboxConfig{Mode: task.SandboxOff}, ""},
		{"false is off", "sandbox: false\n", SandboxConfig{Mode: task.SandboxOff}, ""},
		{"a mapping", "sandbox:\n  mode: auto\n  network: false\n  hide: [~/src]\n  allowEnv: [AWS_*]\n  writable: [~/.cache/x]\n",
			SandboxConfig{Mode: task.SandboxAuto, Network: Network{Off: true}, Hide: []string{"~/src"}, AllowEnv: []string{"AWS_*"},
				Writable: []string{"~/.cache/x"}}, ""},
		{"a bad mode", "prefix: tm\nsandbox: sometimes\n", SandboxConfig{}, `config.yaml:2: sandbox.mode: "sometimes": want one of auto, off, required`},
		{"a bad mode in the mapping", "sandbox:\n  network: true\n  mode: never\n", SandboxConfig{}, `config.yaml:3: sandbox.mode: "never"`},
		{"network internet", "sandbox:\n  network: internet\n", SandboxConfig{}, ""},
		{"network true, as older configs say", "sandbox:\n  network: true\n", SandboxConfig{}, ""},
		{"an allow-list", "sandbox:\n  network: [github.com, '*.npmjs.org', '127.0.0.1:8080']\n",
			SandboxConfig{Network: Network{Hosts: []string{"github.com", "*.npmjs.org", "127.0.0.1:8080"}}}, ""},
		{"an empty allow-list: the model API alone", "sandbox:\n  network: []\n", SandboxConfig{Network: Network{Hosts: []string{}}}, ""},
		{"a bad network word", "prefix: tm\nsandbox:\n  mode: auto\n  network: sometimes\n", SandboxConfig{},
			`config.yaml:4: sandbox.network: "sometimes": want internet, false or a list of hosts`},
		{"a URL in the list", "sandbox:\n  network:\n    - github.com\n    - https://x.org/a\n", SandboxConfig{},
			`config.yaml:2: sandbox.network: "https://x.org/a": want a host`},
		{"a cap on /tmp", "sandbox:\n  tmpSize: 16MiB\n", SandboxConfig{TmpSize: "16MiB"}, ""},
		{"caps on memory and processes", "sandbox:\n  memory: 1GiB\n  processes: 64\n", SandboxConfig{Memory: "1GiB", Processes: 64}, ""},
		{"a bad cap on memory", "prefix: tm\nsandbox:\n  memory: much\n", SandboxConfig{},
			`config.yaml:3: sandbox.memory: "much": want a size`},
		{"a bad cap on the worktree's disk", "prefix: tm\nsandbox:\n  diskSize: big\n", SandboxConfig{},
			`config.yaml:3: sandbox.diskSize: "big": want a size`},
		{"a bad cap on processes", "prefix: tm\nsandbox:\n  processes: -1\n", SandboxConfig{},
			`config.yaml:3: sandbox.processes: -1: want a number`},
		{"a bad cap on /tmp", "prefix: tm\nsandbox:\n  tmpSize: lots\n", SandboxConfig{},
			`config.yaml:3: sandbox.tmpSize: "lots": want a size`},
		{"a misspelt key", "sandbox:\n  mode: auto\n  nework: false\n", SandboxConfig{}, `config.yaml:3: unknown key "nework" (did you mean "network"?)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := loadYAML(t, tt.yaml)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := c.Sandbox
			if got.Mode != tt.want.Mode || got.Network.Off != tt.want.Network.Off ||
				(got.Network.Hosts == nil) != (tt.want.Network.Hosts == nil) || strings.Join(got.Network.Hosts, ",") != strings.Join(tt.want.Network.Hosts, ",") || strings.Join(got.Hide, ",") != strings.Join(tt.want.Hide, ",") ||
				strings.Join(got.AllowEnv, ",") != strings.Join(tt.want.AllowEnv, ",") || strings.Join(got.Writable, ",") != strings.Join(tt.want.Writable, ",") || got.TmpSize != tt.want.TmpSize {
				t.Errorf("sandbox = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestTmpBytes(t *testing.T) {
	for _, tt := range []struct {
		size string
		want int64
	}{{"", DefaultTmpSize}, {"16MiB", 16 << 20}, {"16M", 16 << 20}, {"2 GiB", 2 << 30}, {"4096", 4096}, {"1K", 1024}} {
		c := SandboxConfig{TmpSize: tt.size}
		if err := CheckSize(c.TmpSize); err != nil || c.TmpBytes() != tt.want {
			t.Errorf("%q: %d, %v; want %d", tt.size, c.TmpBytes(), err, tt.want)
		}
	}
	for _, bad := range []string{"0", "-1", "lots", "1TB", "1.5GiB", "99999999999GiB"} {
		if err := CheckSize(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestSandboxMode(t *testing.T) {
	for _, tt := range []struct{ config, task, want string }{
		{"", "", task.SandboxAuto},
		{task.SandboxRequired, "", task.SandboxRequired},
		{task.SandboxRequired, task.SandboxOff, task.SandboxOff}, // the task's own wins: a human wrote it, agents cannot
		{task.SandboxOff, task.SandboxRequired, task.SandboxRequired},
	} {
		c := Config{Sandbox: SandboxConfig{Mode: tt.config}}
		if got := c.SandboxMode(&task.Task{Sandbox: tt.task}); got != tt.want {
			t.Errorf("config %q, task %q: %q, want %q", tt.config, tt.task, got, tt.want)
		}
	}
}
