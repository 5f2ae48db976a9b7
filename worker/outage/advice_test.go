package outage

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
)

// TestOutageAdviceNamesTheAgentThatRan: a refused key or a missing binary
// is explained in the terms of the agent that met it, never claude's for
// codex.
func TestOutageAdviceNamesTheAgentThatRan(t *testing.T) {
	for _, c := range []struct {
		o           agent.Outage
		agent, want string
		not         string
	}{
		{agent.OutageAuth, "claude", "ANTHROPIC_API_KEY", "OPENAI"},
		{agent.OutageAuth, "codex", "OPENAI_API_KEY", "ANTHROPIC"},
		{agent.OutageAuth, "command:my-agent", "credentials of my-agent", "ANTHROPIC"},
		{agent.OutageUnreachable, "command:my-agent", "the service my-agent calls", "ANTHROPIC"},
		{agent.OutageMissing, "claude", "@anthropic-ai/claude-code", "codex"},
		{agent.OutageMissing, "codex", "@openai/codex", "claude"},
		{agent.OutageMissing, "command:my-agent", "install my-agent", "claude"},
	} {
		got := Advice(c.o, c.agent)
		if !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
			t.Errorf("%s of %s: %q", c.o, c.agent, got)
		}
	}
}
