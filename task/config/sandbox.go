package config

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/task"
	"gopkg.in/yaml.v3"
)

// SandboxConfig is the config's sandbox:, either a mode alone
// (sandbox: off) or a mapping that widens or narrows the policy.
type SandboxConfig struct {
	Mode string `yaml:"mode,omitempty" json:"mode,omitempty"`
	// Network is where agents' traffic may go (see Network).
	Network Network `yaml:"network,omitempty" json:"network"`
	// Hide adds folders and files to hide; ~ is home, relative paths are
	// in the repository.
	Hide []string `yaml:"hide,omitempty" json:"hide,omitempty"`
	// Readable adds what agents may read, read-only: nothing else of the
	// home is in the sandbox.
	Readable []string `yaml:"readable,omitempty" json:"readable,omitempty"`
	// Writable are caches and other paths agents may write.
	Writable []string `yaml:"writable,omitempty" json:"writable,omitempty"`
	// AllowEnv are more variables agents get: names, or prefixes ending in *.
	AllowEnv []string `yaml:"allowEnv,omitempty" json:"allowEnv,omitempty"`
	// TmpSize caps the sandbox's /tmp, kept in memory (see TmpBytes).
	TmpSize string `yaml:"tmpSize,omitempty" json:"tmpSize,omitempty"`
	// Memory caps the memory of a run's processes together (see Limits).
	Memory string `yaml:"memory,omitempty" json:"memory,omitempty"`
	// Processes caps how many processes a run has at once (see Limits).
	Processes int `yaml:"processes,omitempty" json:"processes,omitempty"`
	// DiskSize caps the disk a run's worktree takes (see Limits).
	DiskSize string `yaml:"diskSize,omitempty" json:"diskSize,omitempty"`
}

// UnmarshalYAML takes a mode alone or the mapping, strictly: an unknown
// key is reported as decodeConfig reports any other.
func (c *SandboxConfig) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		c.Mode = n.Value
		if v := strings.ToLower(n.Value); v == "false" || v == "no" {
			c.Mode = task.SandboxOff
		}
		return nil
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; !slices.Contains(configKeys()["config.SandboxConfig"], k.Value) {
				return fmt.Errorf("line %d: field %s not found in type config.SandboxConfig", k.Line, k.Value)
			}
		}
	}
	type plain SandboxConfig
	return n.Decode((*plain)(c))
}

// SandboxMode is the mode t runs in: its own, else the config's, else auto.
func (c Config) SandboxMode(t *task.Task) string {
	if t != nil && t.Sandbox != "" {
		return t.Sandbox
	}
	return cmp.Or(c.Sandbox.Mode, task.SandboxAuto)
}
