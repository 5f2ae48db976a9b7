package config

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/bh-tracker/bh/task"
)

// Config is .bh/config.yaml. Unset fields take the defaults below.
type Config struct {
	Prefix       string      `yaml:"prefix" json:"prefix"`
	Agent        AgentConfig `yaml:"agent,omitempty" json:"agent"`
	HumanTimeout Duration    `yaml:"humanTimeout,omitempty" json:"humanTimeout,omitzero"`
	OnTimeout    string      `yaml:"onTimeout,omitempty" json:"onTimeout,omitempty"`
	Gate         GateConfig  `yaml:"gate,omitempty" json:"gate"`
	// Plan makes every task plan before it codes, unless its own plan:
	// says otherwise (task/plan).
	Plan   bool           `yaml:"plan,omitempty" json:"plan,omitempty"`
	Notify []NotifyConfig `yaml:"notify,omitempty" json:"notify,omitempty"`
	// Workers is how many agents run at once (bh worker -j); 0 means 1.
	Workers int    `yaml:"workers,omitempty" json:"workers,omitempty"`
	Target  string `yaml:"target,omitempty" json:"target,omitempty"` // branch to land on; default: the checked-out one
	Land    string `yaml:"land,omitempty" json:"land,omitempty"`     // merge (default), branch or pr
	// Checks are shell commands that must pass, in the task's worktree on
	// the tree that would land, before it lands (see ChecksFor).
	Checks []string `yaml:"checks,omitempty" json:"checks,omitempty"`
	// CheckRounds is how many times a failing check goes back to the agent
	// before a human is asked; 0 means DefaultCheckRounds.
	CheckRounds int `yaml:"checkRounds,omitempty" json:"checkRounds,omitempty"`
	// CheckTimeout bounds each check command (see CheckLimit).
	CheckTimeout Duration       `yaml:"checkTimeout,omitempty" json:"checkTimeout,omitzero"`
	Worktree     WorktreeConfig `yaml:"worktree,omitempty" json:"worktree"`
	// Remote is the git remote that machines share: with it, workers claim
	// tasks there (refs/bh/claims/<id>) and push parked work and sessions.
	Remote string `yaml:"remote,omitempty" json:"remote,omitempty"`
	// AutoSync is how often the worker runs bh sync (and it syncs after
	// each change a human needs to see); empty: never.
	AutoSync Duration `yaml:"autoSync,omitempty" json:"autoSync,omitzero"`
	// Lease is how long a worker's claim holds without a heartbeat before
	// another worker (here, or on another machine) may take the task over;
	// default 2m.
	Lease Duration `yaml:"lease,omitempty" json:"lease,omitzero"`
	// CaptureTranscript false stops bh keeping a copy of each agent
	// session's transcript (which lets a lost session be restored).
	CaptureTranscript *bool `yaml:"captureTranscript,omitempty" json:"captureTranscript,omitempty"`
	// Sandbox is how agents are confined (see SandboxConfig).
	Sandbox SandboxConfig `yaml:"sandbox,omitempty" json:"sandbox"`
	// ReviewRounds is how many rounds of a pull request's feedback go
	// back to the agent before a human is asked (land: pr); default 3.
	ReviewRounds int `yaml:"reviewRounds,omitempty" json:"reviewRounds,omitempty"`
	// Limits is what the worker does at the agent's usage limit.
	Limits LimitsConfig `yaml:"limits,omitempty" json:"limits"`
	// Budget bounds what agents spend (see BudgetConfig).
	Budget BudgetConfig `yaml:"budget,omitempty" json:"budget"`
	// Runner is where the worker runs each task it claims: local (the
	// default) or k8s, a pod of its own (K8s says where).
	Runner string    `yaml:"runner,omitempty" json:"runner,omitempty"`
	K8s    K8sConfig `yaml:"k8s,omitempty" json:"k8s"`
	// GitHub makes a repository's issues a source of tasks and their
	// channel (bh import github); nil: not used.
	GitHub *GitHubConfig `yaml:"github,omitempty" json:"github,omitempty"`
}

// LimitsConfig is what the worker does at the agent's usage limit.
type LimitsConfig struct {
	// AutoResume false keeps the queue paused after the limit resets,
	// until bh worker --resume (or the board's or the web's button).
	AutoResume *bool `yaml:"autoResume,omitempty" json:"autoResume,omitempty"`
}

// BudgetConfig bounds what agents spend, in USD: a task's runs in all
// (PerTask, or its type's in Types; a task's own budget: wins), and every
// run of the repository's in a local day (PerDay). 0: no bound.
type BudgetConfig struct {
	PerTask float64            `yaml:"perTask,omitempty" json:"perTask,omitempty"`
	PerDay  float64            `yaml:"perDay,omitempty" json:"perDay,omitempty"`
	Types   map[string]float64 `yaml:"types,omitempty" json:"types,omitempty"`
}

// WorktreeConfig prepares the linked worktree each task's agent runs in.
type WorktreeConfig struct {
	Dir   string   `yaml:"dir,omitempty" json:"dir,omitempty"`     // parent of the task worktrees; default: bh's state dir
	Copy  []string `yaml:"copy,omitempty" json:"copy,omitempty"`   // globs of ignored files to copy in (.env)
	Setup string   `yaml:"setup,omitempty" json:"setup,omitempty"` // shell command run in the worktree before the agent
	// Keep lists caches (gitignore patterns: node_modules, target/) that a
	// pool slot keeps from one task to the next, so builds start warm.
	Keep []string `yaml:"keep,omitempty" json:"keep,omitempty"`
	// Pool false gives every task a fresh worktree (checked out whole, and
	// removed after) instead of a warm slot of the pool.
	Pool *bool `yaml:"pool,omitempty" json:"pool,omitempty"`
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
	// Outage is a pattern (Go's regexp) that, matched in the last lines a
	// command agent prints when it gives no result, says its service is
	// out: the worker pauses instead of failing the task.
	Outage  string   `yaml:"outage,omitempty" json:"outage,omitempty"`
	Timeout Duration `yaml:"timeout,omitempty" json:"timeout,omitzero"`
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
	Types map[string]task.AgentSettings `yaml:"types,omitempty" json:"types,omitempty"`
}

// GateConfig holds the conditions that hold a completion for approval.
type GateConfig struct {
	BelowConfidence float64 `yaml:"belowConfidence,omitempty" json:"belowConfidence,omitempty"`
}

// MaxWorkers bounds workers: N, a guard against a typo starting hundreds of agents.
const MaxWorkers = 32

// DefaultPrefix prefixes task IDs unless the config says otherwise.
const DefaultPrefix = "tm"

// LeaseTTL is how long a claim holds without a heartbeat: lease:, else
// two minutes.
func (c Config) LeaseTTL() time.Duration { return c.Lease.Or(2 * time.Minute) }

// Load reads the config at path: its defaults when the file is absent, and an
// error naming file and line for what bh cannot use.
func Load(path string) (Config, error) {
	c := Config{Prefix: DefaultPrefix}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("read config: %w", err)
	}
	return Parse(path, b)
}

// Parse reads the config in b, whose file is path.
func Parse(path string, b []byte) (Config, error) {
	c := Config{Prefix: DefaultPrefix}
	if err := decodeConfig(path, b, &c); err != nil {
		return c, err
	}
	c.Prefix = cmp.Or(c.Prefix, DefaultPrefix)
	return c, nil
}
