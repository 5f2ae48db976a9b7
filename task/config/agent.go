package config

import (
	"cmp"
	"strings"

	"github.com/bh-tracker/bh/task"
)

// over lays the settings s sets over c; bins are the programs of the
// agents it may switch to.
func over(s task.AgentSettings, c AgentConfig, bins map[string]string) AgentConfig {
	if s.Agent != "" && s.Agent != cmp.Or(c.Kind, "claude") {
		c.Kind, c.Binary = s.Agent, bins[s.Agent]
	}
	for _, f := range []struct {
		dst *string
		v   string
	}{
		{&c.Model, s.Model}, {&c.PermissionMode, s.PermissionMode},
		{&c.Sandbox, s.Sandbox}, {&c.Dir, s.Dir},
	} {
		if f.v != "" {
			*f.dst = f.v
		}
	}
	if s.Timeout != "" {
		c.Timeout = ParseDuration(s.Timeout)
	}
	if s.System != "" {
		c.System = strings.TrimSpace(strings.Join([]string{c.System, s.System}, "\n\n"))
	}
	return c
}

// Name is what a task records as the agent that worked on it: claude,
// codex or command:<program>.
func (c AgentConfig) Name() string {
	switch {
	case c.Kind == "command" && len(c.Command) > 0:
		return "command:" + c.Command[0]
	case c.Kind == "codex":
		return "codex"
	}
	return "claude"
}

// For is the agent configuration t runs with: the config's agent:, then
// its type's settings, then the task's own; instructions add up, the rest
// is replaced.
func (c AgentConfig) For(t *task.Task) AgentConfig {
	types := c.Types
	c.Types = nil
	bins := map[string]string{cmp.Or(c.Kind, "claude"): c.Binary}
	for k, v := range c.Binaries {
		if k != cmp.Or(c.Kind, "claude") {
			bins[k] = v
		}
	}
	if s, ok := types[string(t.Type)]; ok {
		c = over(s, c, bins)
	}
	if t.AgentSettings != nil {
		c = over(*t.AgentSettings, c, bins)
	}
	return c
}
