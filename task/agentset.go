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
		{"timeout", CheckDuration(s.Timeout)},
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
