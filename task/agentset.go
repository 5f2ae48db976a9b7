package task

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
)

// AgentSettings tune the agent for one task type (agent.types in the
// config) or one task (its agentSettings), over the config's agent:.
type AgentSettings struct {
	Agent          string `yaml:"agent,omitempty" json:"agent,omitempty"` // claude, codex or command
	Model          string `yaml:"model,omitempty" json:"model,omitempty"`
	Timeout        string `yaml:"timeout,omitempty" json:"timeout,omitempty"`
	PermissionMode string `yaml:"permissionMode,omitempty" json:"permissionMode,omitempty"` // claude's
	Sandbox        string `yaml:"sandbox,omitempty" json:"sandbox,omitempty"`               // codex's
	System         string `yaml:"system,omitempty" json:"system,omitempty"`                 // added to the agent's instructions
	Dir            string `yaml:"dir,omitempty" json:"dir,omitempty"`                       // working directory, relative to the repository
	// Checks add to the config's checks for this type (or task).
	Checks []string `yaml:"checks,omitempty" json:"checks,omitempty"`
}

// Agent kinds, sandbox modes and Claude Code's permission modes bh accepts.
var (
	AgentKinds      = []string{"claude", "codex", "command"}
	Sandboxes       = []string{"read-only", "workspace-write", "danger-full-access"}
	PermissionModes = []string{"default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", "auto"}
)

// Empty reports whether s sets nothing.
func (s AgentSettings) Empty() bool { return reflect.ValueOf(s).IsZero() }

// Check validates every setting and names the first bad one by its key.
func (s AgentSettings) Check() (key string, err error) {
	for _, c := range []struct {
		key string
		err error
	}{
		{"agent", checkOneOf(s.Agent, AgentKinds)},
		{"timeout", checkDuration(s.Timeout)},
		{"permissionMode", checkOneOf(s.PermissionMode, PermissionModes)},
		{"sandbox", checkOneOf(s.Sandbox, Sandboxes)},
		{"dir", CheckAgentDir(s.Dir)},
		{"checks", CheckCommands(s.Checks)},
	} {
		if c.err != nil {
			return c.key, c.err
		}
	}
	return "", nil
}

func checkOneOf(v string, allowed []string) error {
	if v == "" || slices.Contains(allowed, v) {
		return nil
	}
	return fmt.Errorf("%q: want one of %s", v, strings.Join(allowed, ", "))
}

// CheckAgentDir accepts a directory inside the repository: relative, and
// not climbing out of it.
func CheckAgentDir(dir string) error {
	if dir == "" {
		return nil
	}
	clean := filepath.Clean(dir)
	if filepath.IsAbs(dir) || clean == ".." || strings.HasPrefix(clean, "../") {
		return fmt.Errorf("%q: want a directory inside the repository, relative to its root", dir)
	}
	return nil
}

// over lays the settings s sets over c; bins are the programs of the
// agents it may switch to.
func (s AgentSettings) over(c AgentConfig, bins map[string]string) AgentConfig {
	if s.Agent != "" && s.Agent != firstOf(c.Kind, "claude") {
		c.Kind, c.Binary = s.Agent, bins[s.Agent]
	}
	for _, f := range []struct {
		dst *string
		v   string
	}{
		{&c.Model, s.Model}, {&c.Timeout, s.Timeout}, {&c.PermissionMode, s.PermissionMode},
		{&c.Sandbox, s.Sandbox}, {&c.Dir, s.Dir},
	} {
		if f.v != "" {
			*f.dst = f.v
		}
	}
	if s.System != "" {
		c.System = strings.TrimSpace(strings.Join([]string{c.System, s.System}, "\n\n"))
	}
	return c
}

// For is the agent configuration t runs with: the config's agent:, then
// its type's settings, then the task's own; instructions add up, the rest
// is replaced.
func (c AgentConfig) For(t *Task) AgentConfig {
	types := c.Types
	c.Types = nil
	bins := map[string]string{firstOf(c.Kind, "claude"): c.Binary}
	for k, v := range c.Binaries {
		if k != firstOf(c.Kind, "claude") {
			bins[k] = v
		}
	}
	if s, ok := types[string(t.Type)]; ok {
		c = s.over(c, bins)
	}
	if t.AgentSettings != nil {
		c = t.AgentSettings.over(c, bins)
	}
	return c
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
