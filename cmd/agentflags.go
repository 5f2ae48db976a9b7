package cmd

import (
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/spf13/cobra"
)

// agentFlags choose and tune the agent for one task, over the config's
// agent: and its types: (task.AgentSettings).
type agentFlags struct{ s task.AgentSettings }

// agentFlagOf names the flag that sets each key of task.AgentSettings.
var agentFlagOf = map[string]string{"agent": "agent", "model": "model", "timeout": "agent-timeout",
	"permissionMode": "permission-mode", "sandbox": "sandbox", "system": "system", "dir": "dir"}

func (a *agentFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&a.s.Agent, "agent", "", "the agent that works on it: `"+strings.Join(task.AgentKinds, "|")+"`")
	fl.StringVar(&a.s.Model, "model", "", "the agent's model")
	fl.StringVar(&a.s.Timeout, "agent-timeout", "", "how long one agent run may take: `DURATION`")
	fl.StringVar(&a.s.PermissionMode, "permission-mode", "", "Claude Code's permission mode: `"+
		strings.Join(task.PermissionModes, "|")+"`")
	fl.StringVar(&a.s.Sandbox, "sandbox", "", "Codex's sandbox: `"+strings.Join(task.Sandboxes, "|")+"`")
	fl.StringVar(&a.s.System, "system", "", "instructions added to the agent's system prompt")
	fl.StringVar(&a.s.Dir, "dir", "", "the agent's working directory, relative to the repository root")
	for flag, values := range map[string][]string{"agent": task.AgentKinds, "permission-mode": task.PermissionModes,
		"sandbox": task.Sandboxes} {
		_ = c.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
	}
}

// settings are the flags' settings, validated as the config's are; nil
// when none was given.
func (a *agentFlags) settings() (*task.AgentSettings, error) {
	s := a.s
	s.Dir = strings.TrimSpace(s.Dir)
	if s.Empty() {
		return nil, nil
	}
	if key, err := s.Check(); err != nil {
		return nil, usageErrorf("--%s: %v", agentFlagOf[key], err)
	}
	return &s, nil
}
