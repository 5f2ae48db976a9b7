package task

import (
	"errors"
	"fmt"
	"os"
)

// Config is .bh/config.yaml. Unset fields take the defaults below.
type Config struct {
	Prefix       string         `yaml:"prefix" json:"prefix"`
	Agent        AgentConfig    `yaml:"agent,omitempty" json:"agent"`
	HumanTimeout string         `yaml:"humanTimeout,omitempty" json:"humanTimeout,omitempty"`
	OnTimeout    string         `yaml:"onTimeout,omitempty" json:"onTimeout,omitempty"`
	Gate         GateConfig     `yaml:"gate,omitempty" json:"gate"`
	Notify       []NotifyConfig `yaml:"notify,omitempty" json:"notify,omitempty"`
	// Workers is how many agents run at once (bh worker -j); 0 means 1.
	Workers  int            `yaml:"workers,omitempty" json:"workers,omitempty"`
	Target   string         `yaml:"target,omitempty" json:"target,omitempty"` // branch to land on; default: the checked-out one
	Land     string         `yaml:"land,omitempty" json:"land,omitempty"`     // merge (default) or branch
	Worktree WorktreeConfig `yaml:"worktree,omitempty" json:"worktree"`
	// CaptureTranscript false stops bh keeping a copy of each agent
	// session's transcript (which lets a lost session be restored).
	CaptureTranscript *bool `yaml:"captureTranscript,omitempty" json:"captureTranscript,omitempty"`
}

// WorktreeConfig prepares the linked worktree each task's agent runs in.
type WorktreeConfig struct {
	Dir   string   `yaml:"dir,omitempty" json:"dir,omitempty"`     // parent of the task worktrees; default: bh's state dir
	Copy  []string `yaml:"copy,omitempty" json:"copy,omitempty"`   // globs of ignored files to copy in (.env)
	Setup string   `yaml:"setup,omitempty" json:"setup,omitempty"` // shell command run in the worktree before the agent
}

// AgentConfig picks and tunes the coding agent the worker runs. Types and
// a task's own agentSettings adjust it per task (see For).
type AgentConfig struct {
	Kind   string `yaml:"kind,omitempty" json:"kind,omitempty"` // claude (default), codex or command
	Binary string `yaml:"binary,omitempty" json:"binary,omitempty"`
	// Binaries name the program of each other agent kind a task type or
	// a task may switch to, such as codex: /opt/codex/bin/codex.
	Binaries       map[string]string `yaml:"binaries,omitempty" json:"binaries,omitempty"`
	Model          string            `yaml:"model,omitempty" json:"model,omitempty"`
	PermissionMode string            `yaml:"permissionMode,omitempty" json:"permissionMode,omitempty"`
	AllowedTools   []string          `yaml:"allowedTools,omitempty" json:"allowedTools,omitempty"`
	ExtraArgs      []string          `yaml:"extraArgs,omitempty" json:"extraArgs,omitempty"`
	Command        []string          `yaml:"command,omitempty" json:"command,omitempty"` // argv for kind: command
	Timeout        string            `yaml:"timeout,omitempty" json:"timeout,omitempty"`
	// AllowGitWrites lets the agent run git commit, push, reset and the
	// like, which bh bans by default: it commits and lands the work itself.
	AllowGitWrites bool `yaml:"allowGitWrites,omitempty" json:"allowGitWrites,omitempty"`
	// Sandbox is codex's sandbox mode (default workspace-write); Network
	// lets its sandboxed commands reach the network.
	Sandbox string `yaml:"sandbox,omitempty" json:"sandbox,omitempty"`
	Network bool   `yaml:"network,omitempty" json:"network,omitempty"`
	System  string `yaml:"system,omitempty" json:"system,omitempty"` // added to the agent's instructions
	Dir     string `yaml:"dir,omitempty" json:"dir,omitempty"`       // the agent's working directory, relative to the repository
	// Types tune the agent per task type, such as docs: {agent: codex}.
	Types map[string]AgentSettings `yaml:"types,omitempty" json:"types,omitempty"`
}

// GateConfig holds the conditions that hold a completion for approval.
type GateConfig struct {
	BelowConfidence float64 `yaml:"belowConfidence,omitempty" json:"belowConfidence,omitempty"`
}

// NotifyConfig is one notifier and the events it listens to.
type NotifyConfig struct {
	Events  []string `yaml:"events,omitempty" json:"events,omitempty"`
	Command string   `yaml:"command,omitempty" json:"command,omitempty"`
	Webhook string   `yaml:"webhook,omitempty" json:"webhook,omitempty"`
	Desktop bool     `yaml:"desktop,omitempty" json:"desktop,omitempty"`
	Timeout string   `yaml:"timeout,omitempty" json:"timeout,omitempty"`
}

// DefaultPrefix prefixes task IDs unless the config says otherwise.
const DefaultPrefix = "tm"

func loadConfig(path string) (Config, error) {
	c := Config{Prefix: DefaultPrefix}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("read config: %w", err)
	}
	if err := decodeConfig(path, b, &c); err != nil {
		return c, err
	}
	if c.Prefix == "" {
		c.Prefix = DefaultPrefix
	}
	return c, nil
}
