package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent/untrusted"
)

// CodexConfig configures the Codex CLI adapter.
type CodexConfig struct {
	Binary string // default "codex", looked up on PATH
	Model  string // -m; empty keeps codex's default
	// Sandbox is codex's sandbox_mode: read-only, workspace-write (the
	// default) or danger-full-access.
	Sandbox string
	// Network lets sandboxed commands reach the network, which
	// workspace-write forbids by default.
	Network   bool
	ExtraArgs []string      // codex exec flags, placed before bh's prompt
	Timeout   time.Duration // default for requests without their own; 0 means none
	// MCP is bh's MCP server, offered to codex as the "bh" server so that
	// the model can ask the human through ask_human; nil runs without it.
	MCP *MCPServer
}

// Codex runs the Codex CLI non-interactively (codex exec --json), starting
// a thread or resuming one.
//
// Its tools were reviewed as Claude Code's were (outsideTools), on 0.169:
// none writes git state outside the working directory (the worktrees
// feature is removed) or reaches the user's other sessions (the agent
// message board is off, under development); shell, apply_patch, its
// subagents (multi_agent) and a daemon it may start stay in the run's
// sandbox, whose pid namespace ends with the run. Its hooks, config and
// memories live in CODEX_HOME, which is the task's own and made afresh
// for every run, so nothing is disallowed. The thread's id comes from codex itself, in the
// first event of its stream (thread.started); Outcome.SessionID carries it
// and Request.Session is told as soon as it is known.
type Codex struct {
	cfg   CodexConfig
	grace time.Duration // SIGTERM to SIGKILL; tests shorten it
}

// NewCodex returns a Runner for the Codex CLI.
func NewCodex(cfg CodexConfig) *Codex {
	if cfg.Binary == "" {
		cfg.Binary = "codex"
	}
	if cfg.Sandbox == "" {
		cfg.Sandbox = "workspace-write"
	}
	return &Codex{cfg: cfg}
}

// Args is codex's command line for req, with the output schema and the
// last message in the given files. Every flag goes before "resume", whose
// own parser refuses most of them (-s among them: the sandbox is set with
// -c instead). The prompt comes on stdin ("-").
func (c *Codex) Args(req Request, schemaFile, lastFile string) []string {
	args := append([]string{"exec", "--json", "--color", "never", "--output-schema", schemaFile, "-o", lastFile},
		c.configArgs(req)...)
	args = append(args, c.cfg.ExtraArgs...)
	if req.Resume {
		args = append(args, "resume", req.SessionID)
	}
	return append(args, "-")
}

// TakeoverArgs is the command line of an interactive codex resume that a
// human takes over (bh continue): the worker's sandbox, approval policy and
// MCP server, from the one builder. ExtraArgs are codex exec's flags and
// stay out.
func (c *Codex) TakeoverArgs(req Request) []string {
	return append(c.configArgs(req), "resume", req.SessionID)
}

// configArgs are the -c settings (and model) of every codex bh starts.
func (c *Codex) configArgs(req Request) []string {
	sandbox := c.cfg.Sandbox
	if req.ReadOnly {
		sandbox = "read-only" // a planning run
	}
	args := []string{"-c", "sandbox_mode=" + tomlString(sandbox),
		"-c", fmt.Sprintf("sandbox_workspace_write.network_access=%t", c.cfg.Network),
		// Its commands write temporary files in the run's own TMPDIR; /tmp
		// left out, lest codex's sandbox try to guard a /tmp/.git in a /tmp
		// bh's sandbox mounts ("bwrap: Can't mkdir /tmp/.git").
		"-c", "sandbox_workspace_write.exclude_slash_tmp=true",
		// bh is not at the terminal to approve a command: a denied one is
		// reported to the model, which can ask the human through bh.
		"-c", `approval_policy="never"`}
	if c.cfg.Model != "" {
		args = append(args, "-m", c.cfg.Model)
	}
	if m := c.cfg.MCP; m != nil {
		cmd, _ := json.Marshal(m.Command)
		margs, _ := json.Marshal(m.Args)
		// Under approval_policy="never" codex refuses every MCP call that
		// needs an approval ("MCP tool call requires approval, but approval
		// policy is never"): bh's own tools are approved up front.
		args = append(args, "-c", "mcp_servers.bh.command="+string(cmd), "-c", "mcp_servers.bh.args="+string(margs),
			"-c", "mcp_servers.bh.env="+tomlTable(m.env(req)), "-c", `mcp_servers.bh.default_tools_approval_mode="approve"`)
	}
	return args
}

// prompt is what codex reads on stdin. Codex has no flag to append to its
// system prompt, and a resumed thread keeps the instructions it started
// with, so the contract leads the prompt on every run, resumes included.
func (c *Codex) prompt(req Request) string {
	if req.System == "" {
		return req.Prompt
	}
	return req.System + "\n\n" + req.Prompt
}

// Run runs codex once in req.Dir.
func (c *Codex) Run(ctx context.Context, req Request) (*Outcome, error) {
	sw := newStepWriter(req, c.cfg.Model)
	sw.account = AccountOf(req.Env, "codex")
	return sw.finish(c.run(ctx, req, sw))
}

func (c *Codex) run(ctx context.Context, req Request, sw *stepWriter) (*Outcome, error) {
	if req.Resume && req.SessionID == "" {
		return nil, runErrorf(nil, "codex: no thread to resume")
	}
	tmp, err := os.MkdirTemp("", "bh-codex-")
	if err != nil {
		return nil, runErrorf(err, "codex: %v", err)
	}
	defer os.RemoveAll(tmp)
	schemaFile, lastFile := filepath.Join(tmp, "schema.json"), filepath.Join(tmp, "last-message.txt")
	if err := os.WriteFile(schemaFile, []byte(StrictSchema()), 0o600); err != nil {
		return nil, runErrorf(err, "codex: %v", err)
	}
	env := append([]string{"BH_TASK_ID=" + req.TaskID}, req.Env...)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	sw.stop = stopFor(cancel)
	p := proc{argv: append([]string{c.cfg.Binary}, c.Args(req, schemaFile, lastFile)...), dir: req.Dir, env: env,
		stdin: c.prompt(req), timeout: timeoutOf(req, c.cfg.Timeout), grace: c.grace, started: req.Started,
		live: sw.to(req.Live), launch: req.Launcher, write: []string{tmp}}
	res, err := p.run(ctx)
	if re := res.stopped(ctx, "codex: the API refuses the credentials (401)",
		fmt.Sprintf("codex: the API cannot be reached (a refused connection, DNS or the network); stopped after %d tries", netTries)); re != nil {
		return nil, re
	}
	if err != nil {
		return nil, err
	}
	// The agent can write its temporary folder: a link there is not read.
	last, _ := untrusted.ReadFile(lastFile, MaxOutputBytes)
	out, err := ParseCodex(res.stdout, last)
	if err != nil {
		var re *RunError
		if errors.As(err, &re) {
			re.Stderr, re.ExitCode = res.stderr, res.exitCode
			if res.exitCode != 0 && re.Outage == "" && !errors.Is(err, ErrCodexReported) {
				re.Reason = res.exitError().Reason
			}
		}
		return nil, err
	}
	if res.exitCode != 0 {
		re := res.exitError()
		re.ExitCode, re.Stderr = res.exitCode, res.stderr
		return nil, re
	}
	out.Stderr, out.Duration = res.stderr, res.duration
	return out, nil
}

// tomlString quotes s for a -c value: JSON's string escapes are TOML's.
func tomlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// tomlTable is an inline TOML table of string values, keys sorted.
func tomlTable(m map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, tomlString(k)+" = "+tomlString(m[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// NamesSessions reports that codex names its threads itself: a first run
// has no session id to give it.
func (c *Codex) NamesSessions() bool { return true }
