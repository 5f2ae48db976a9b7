package task

import (
	"reflect"
	"testing"
)

// A task runs with the config's agent, its type's settings over that, and
// its own over both; instructions add up, and a switch of agent takes that
// agent's program from binaries (or agent.binary, back to the config's own).
func TestAgentConfigFor(t *testing.T) {
	base := AgentConfig{Binary: "/bin/claude", Model: "opus", Timeout: "30m", System: "Be brief.",
		Binaries: map[string]string{"codex": "/bin/codex"},
		Types:    map[string]AgentSettings{"docs": {Agent: "codex", Model: "gpt-5", System: "Write plainly."}}}
	for _, c := range []struct {
		name string
		t    Task
		want AgentConfig
	}{
		{"config", Task{Type: "code"}, AgentConfig{Binary: "/bin/claude", Model: "opus", Timeout: "30m", System: "Be brief.",
			Binaries: base.Binaries}},
		{"type", Task{Type: "docs"}, AgentConfig{Kind: "codex", Binary: "/bin/codex", Model: "gpt-5", Timeout: "30m",
			System: "Be brief.\n\nWrite plainly.", Binaries: base.Binaries}},
		{"task over type", Task{Type: "docs", AgentSettings: &AgentSettings{Agent: "claude", Timeout: "1h", Dir: "docs",
			Sandbox: "read-only"}},
			AgentConfig{Kind: "claude", Binary: "/bin/claude", Model: "gpt-5", Timeout: "1h", Dir: "docs", Sandbox: "read-only",
				System: "Be brief.\n\nWrite plainly.", Binaries: base.Binaries}},
		{"same agent keeps its binary", Task{Type: "code", AgentSettings: &AgentSettings{Agent: "claude", Model: "haiku"}},
			AgentConfig{Binary: "/bin/claude", Model: "haiku", Timeout: "30m", System: "Be brief.", Binaries: base.Binaries}},
	} {
		if got := base.For(&c.t); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}

func TestAgentSettingsCheck(t *testing.T) {
	for _, c := range []struct {
		s   AgentSettings
		key string
	}{
		{AgentSettings{Agent: "codex", Sandbox: "workspace-write", Dir: "sub/dir", Timeout: "5m"}, ""},
		{AgentSettings{Agent: "gpt"}, "agent"},
		{AgentSettings{Timeout: "-1m"}, "timeout"},
		{AgentSettings{PermissionMode: "yolo"}, "permissionMode"},
		{AgentSettings{Sandbox: "none"}, "sandbox"},
		{AgentSettings{Dir: "/etc"}, "dir"},
		{AgentSettings{Dir: "a/../../b"}, "dir"},
	} {
		if key, err := c.s.Check(); key != c.key || (err != nil) != (c.key != "") {
			t.Errorf("%+v: key %q, err %v; want key %q", c.s, key, err, c.key)
		}
	}
}
