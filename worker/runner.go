package worker

import (
	"fmt"
	"regexp"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/jail"
	"github.com/bh-tracker/bh/worker/slots"
)

// DefaultAgentTimeout bounds one agent run when the config sets none.
const DefaultAgentTimeout = 30 * time.Minute

// NewRunner builds the agent the config asks for: Claude Code by default,
// or any command that speaks bh's result contract.
// mcp is bh's MCP server for claude to start; nil runs claude without it.
func NewRunner(cfg config.AgentConfig, mcp *agent.MCPServer) (agent.Runner, error) {
	if cfg.Timeout.Check() != nil { // a task's own agentSettings
		return nil, fmt.Errorf("agent timeout %q: want a duration such as 30m", cfg.Timeout)
	}
	timeout := cfg.Timeout.Or(DefaultAgentTimeout)
	switch cfg.Kind {
	case "", "claude":
		return agent.NewClaude(agent.ClaudeConfig{Binary: cfg.Binary, Model: cfg.Model,
			PermissionMode: cfg.PermissionMode, AllowedTools: cfg.AllowedTools, ExtraArgs: cfg.ExtraArgs,
			Timeout: timeout, MCP: mcp, AllowGitWrites: cfg.AllowGitWrites}), nil
	case "codex":
		return agent.NewCodex(agent.CodexConfig{Binary: cfg.Binary, Model: cfg.Model, Sandbox: cfg.Sandbox,
			Network: cfg.Network, ExtraArgs: cfg.ExtraArgs, Timeout: timeout, MCP: mcp}), nil
	case "command":
		if len(cfg.Command) == 0 {
			return nil, fmt.Errorf("agent kind command needs a command: list in .bh/config.yaml")
		}
		var outage *regexp.Regexp
		if cfg.Outage != "" {
			var err error
			if outage, err = regexp.Compile(cfg.Outage); err != nil {
				return nil, fmt.Errorf("agent outage %q: %w", cfg.Outage, err)
			}
		}
		return agent.NewCommand(agent.CommandConfig{Argv: cfg.Command, Timeout: timeout, Outage: outage}), nil
	}
	return nil, fmt.Errorf("unknown agent kind %q (want claude, codex or command)", cfg.Kind)
}

// runnerFor is the agent t runs with, and its name: the worker's own
// runner when the caller gave one, else the config's agent as t's type
// and t's own settings adjust it.
func (w *worker) runnerFor(t *task.Task) (agent.Runner, string, config.AgentConfig, error) {
	cfg := w.s.Config.Agent.For(t)
	if w.opt.Runner != nil {
		return w.opt.Runner, w.agent, cfg, nil
	}
	r, err := NewRunner(cfg, w.mcp())
	return r, cfg.Name(), cfg, err
}

// mcp is bh's MCP server for the agent to start.
func (w *worker) mcp() *agent.MCPServer {
	if w.opt.MCP != nil {
		return w.opt.MCP
	}
	return jail.MCPCommand()
}

// jail is what confines this worker's runs.
func (w *worker) jail() *jail.Jail {
	return &jail.Jail{Store: w.s, CommonDir: w.repo.CommonDir(), Worktrees: slots.WorktreeDir(w.s, w.repo.CommonDir()),
		Env: w.opt.Env, MCP: w.mcp(), OwnState: w.opt.Runner != nil, Warnf: w.warnf, Identity: w.repo.Identity}
}
