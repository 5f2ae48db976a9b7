package config

import (
	"reflect"
	"testing"

	"github.com/bh-tracker/bh/task"
)

// A task runs with the config's agent, its type's settings over that, and
// its own over both; instructions add up, and a switch of agent takes that
// agent's program from binaries (or agent.binary, back to the config's own).
func TestAgentConfigFor(t *testing.T) {
	base := AgentConfig{Binary: "/bin/claude", Model: "opus", Timeout: ParseDuration("30m"), System: "Be brief.",
		Binaries: map[string]string{"codex": "/bin/codex"},
		Types:    map[string]task.AgentSettings{"docs": {Agent: "codex", Model: "gpt-5", System: "Write plainly."}}}
	for _, c := range []struct {
		name string
		t    task.Task
		want AgentConfig
	}{
		{"config", task.Task{Type: "code"}, AgentConfig{Binary: "/bin/claude", Model: "opus", Timeout: ParseDuration("30m"), System: "Be brief.",
			Binaries: base.Binaries}},
		{"type", task.Task{Type: "docs"}, AgentConfig{Kind: "codex", Binary: "/bin/codex", Model: "gpt-5", Timeout: ParseDuration("30m"),
			System: "Be brief.\n\nWrite plainly.", Binaries: base.Binaries}},
		{"task over type", task.Task{Type: "docs", AgentSettings: &task.AgentSettings{Agent: "claude", Timeout: "1h", Dir: "docs",
			Sandbox: "read-only"}},
			AgentConfig{Kind: "claude", Binary: "/bin/claude", Model: "gpt-5", Timeout: ParseDuration("1h"), Dir: "docs", Sandbox: "read-only",
				System: "Be brief.\n\nWrite plainly.", Binaries: base.Binaries}},
		{"same agent keeps its binary", task.Task{Type: "code", AgentSettings: &task.AgentSettings{Agent: "claude", Model: "haiku"}},
			AgentConfig{Binary: "/bin/claude", Model: "haiku", Timeout: ParseDuration("30m"), System: "Be brief.", Binaries: base.Binaries}},
	} {
		if got := base.For(&c.t); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}
