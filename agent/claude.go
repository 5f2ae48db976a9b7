package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
)

// ClaudeConfig configures the Claude Code adapter.
type ClaudeConfig struct {
	Binary         string // default "claude", looked up on PATH
	Model          string // --model; empty keeps claude's default
	PermissionMode string // default "acceptEdits"
	AllowedTools   []string
	ExtraArgs      []string      // appended after bh's own flags
	Timeout        time.Duration // default for requests without their own; 0 means none
	// MCP is bh's MCP server (bh mcp), which answers claude's permission
	// prompts and gives the agent ask_human; nil runs claude without it.
	MCP *MCPServer
	// AllowGitWrites lifts the default ban on git commands that move refs
	// or the index (bh commits and lands the work itself).
	AllowGitWrites bool
}

// MCPServer is how claude starts bh's MCP server for a run.
type MCPServer struct {
	Command string
	Args    []string
	Env     map[string]string
}

// env is the MCP server's environment for req: the MCP server's
// environment is not the agent's, so the task and outbox are told here.
func (m *MCPServer) env(req Request) map[string]string {
	env := map[string]string{"BH_TASK_ID": req.TaskID}
	if req.Outbox != "" {
		env["BH_OUTBOX"] = req.Outbox
	}
	if req.ReadOnly {
		env["BH_PHASE"] = "plan" // bh mcp denies its permission prompts (mcp.PhaseEnv)
	}
	maps.Copy(env, m.Env)
	return env
}

// gitWrites are the git commands an agent may not run by default: bh
// commits, rebases and lands its work, and a branch the agent moved would
// be a surprise.
var gitWrites = []string{"commit", "push", "reset", "checkout", "switch", "stash", "rebase", "merge",
	"cherry-pick", "branch", "tag", "update-ref"}

// outsideTools are Claude Code's built-in tools that reach past the run's
// worktree and lifetime, disallowed in every session bh starts (reviewed
// on 2.1.330's -p tool list):
//   - EnterWorktree, ExitWorktree make a worktree and a branch in the
//     repository and move the session there: its writes leave the task's
//     worktree (unsandboxed, the task closed "completed" with only its
//     task file).
//   - CronCreate, CronDelete, CronList schedule prompts, durable ones in
//     .claude/scheduled_tasks.json, which would land with the work and
//     run later in the user's own claude; ScheduleWakeup and RemoteTrigger
//     start the session again after the run.
//   - SendMessage, ListAgents reach the user's other Claude sessions;
//     PushNotification, TeamCreate and TeamDelete reach past the session.
//
// Those left stay inside the session and the sandbox: Bash, Read, Edit,
// Write, NotebookEdit, Task and Workflow (subagents of this session),
// Monitor and TaskStop (its own background commands), Skill, ToolSearch,
// ReportFindings, WebFetch, WebSearch.
var outsideTools = []string{"EnterWorktree", "ExitWorktree", "CronCreate", "CronDelete", "CronList",
	"ScheduleWakeup", "RemoteTrigger", "SendMessage", "ListAgents", "PushNotification", "TeamCreate", "TeamDelete"}

// Claude runs Claude Code in print mode (claude -p --output-format json),
// starting a session under the request's UUID or resuming it.
type Claude struct {
	cfg   ClaudeConfig
	grace time.Duration // SIGTERM to SIGKILL; tests shorten it
}

// NewClaude returns a Runner for Claude Code.
func NewClaude(cfg ClaudeConfig) *Claude {
	if cfg.Binary == "" {
		cfg.Binary = "claude"
	}
	if cfg.PermissionMode == "" {
		cfg.PermissionMode = "acceptEdits"
	}
	return &Claude{cfg: cfg}
}

// Args is claude's command line for req. The prompt is not in it: Run feeds
// it on stdin, so a prompt starting with "-" or longer than the kernel's
// argument limit reaches claude intact.
func (c *Claude) Args(req Request) []string {
	// stream-json: one event per line as the run goes, so that the run log
	// fills live and a killed run leaves its transcript; the last line is
	// the same result object as json mode's.
	args := []string{"-p", "--output-format", "stream-json", "--verbose", "--json-schema", Schema}
	if req.Resume {
		args = append(args, "--resume", req.SessionID)
	} else {
		args = append(args, "--session-id", req.SessionID)
	}
	return append(args, c.sessionArgs(req)...)
}

// TakeoverArgs is the command line of an interactive claude --resume that
// a human takes over (bh continue): the same permission mode, git-write
// rules and MCP server as the worker's runs, from the one builder.
func (c *Claude) TakeoverArgs(req Request) []string {
	return append([]string{"--resume", req.SessionID}, c.sessionArgs(req)...)
}

// sessionArgs are the flags every claude bh starts gets, print mode or not.
func (c *Claude) sessionArgs(req Request) []string {
	mode, allowed, barred := c.permissions(req)
	args := []string{"--permission-mode", mode}
	if c.cfg.Model != "" {
		args = append(args, "--model", c.cfg.Model)
	}
	if req.Name != "" {
		args = append(args, "--name", req.Name)
	}
	if req.System != "" {
		args = append(args, "--append-system-prompt", req.System)
	}
	// One --allowedTools=<tool> each: the bare flag is variadic and would
	// swallow the next argument, and a tool rule may hold commas or spaces.
	for _, t := range append(allowed, c.mcpTools()...) {
		args = append(args, "--allowedTools="+t)
	}
	for _, t := range barred {
		args = append(args, "--disallowedTools="+t)
	}
	if !c.cfg.AllowGitWrites {
		for _, g := range gitWrites {
			args = append(args, "--disallowedTools=Bash(git "+g+":*)")
		}
	}
	if m := c.cfg.MCP; m != nil {
		cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"bh": map[string]any{
			"type": "stdio", "command": m.Command, "args": m.Args, "env": m.env(req)}}})
		args = append(args, "--mcp-config", string(cfg), "--permission-prompt-tool", "mcp__bh__permission_prompt")
	}
	return append(args, c.cfg.ExtraArgs...)
}

// permissions are the permission mode, the tools allowed and those
// disallowed (but git's writes) for req. A read-only request (a planning
// run) is plan mode, which refuses edits, with no rule of the user's to
// allow one; its ExitPlanMode would ask bh's permission tool to leave plan
// mode: the plan goes in the result instead.
func (c *Claude) permissions(req Request) (mode string, allowed, barred []string) {
	if req.ReadOnly {
		return "plan", nil, append(slices.Clone(outsideTools), "ExitPlanMode")
	}
	return c.cfg.PermissionMode, append(c.cfg.AllowedTools, req.AllowTools...), outsideTools
}

// ClaudeRetries caps claude's own retries of a failed API call (it would
// retry an overloaded API for about 3.5 minutes, silently): a few seconds
// of them ride out a blip, and past them the worker's backoff takes over,
// which bh status shows. CLAUDE_CODE_MAX_RETRIES in the environment wins.
const ClaudeRetries = 3

// mcpTools are bh's MCP tools the agent may call without asking.
func (c *Claude) mcpTools() []string {
	if c.cfg.MCP == nil {
		return nil
	}
	return []string{"mcp__bh__ask_human", "mcp__bh__ready_tasks", "mcp__bh__show_task", "mcp__bh__add_task"}
}

// Run runs claude once in req.Dir.
func (c *Claude) Run(ctx context.Context, req Request) (*Outcome, error) {
	sw := newStepWriter(req, "") // claude names each message's model
	sw.account = AccountOf(req.Env, "claude")
	return sw.finish(c.run(ctx, req, sw))
}

func (c *Claude) run(ctx context.Context, req Request, sw *stepWriter) (*Outcome, error) {
	if err := uuid.Validate(req.SessionID); err != nil {
		return nil, runErrorf(err, "claude session id %q is not a uuid", req.SessionID)
	}
	env := append([]string{"BH_TASK_ID=" + req.TaskID, "BH_SESSION_ID=" + req.SessionID}, req.Env...)
	if LookupEnv(env, "CLAUDE_CODE_MAX_RETRIES") == "" {
		env = append(env, fmt.Sprintf("CLAUDE_CODE_MAX_RETRIES=%d", ClaudeRetries))
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	sw.stop = stopFor(cancel)
	p := proc{argv: append([]string{c.cfg.Binary}, c.Args(req)...), dir: req.Dir, env: env,
		stdin: req.Prompt, timeout: timeoutOf(req, c.cfg.Timeout), grace: c.grace, started: req.Started,
		live: sw.to(req.Live), launch: req.Launcher}
	res, err := p.run(ctx)
	if re := res.stopped(ctx, "claude: the API refuses the credentials (401); stopped rather than retrying for minutes",
		fmt.Sprintf("claude: the API cannot be reached (a refused connection, DNS, or bh's egress proxy could not connect); stopped after %d tries rather than retrying for minutes", netTries)); re != nil {
		return nil, re
	}
	if err != nil {
		return nil, err
	}
	out, err := ParseClaude(res.stdout)
	var re *RunError
	errors.As(err, &re)
	if res.exitCode != 0 {
		// claude exits 1 after an API error yet prints its JSON result,
		// whose message says more than the bare status.
		if re == nil || !errors.Is(re, ErrClaudeReported) {
			re = res.exitError()
		}
		re.ExitCode, re.Stderr = res.exitCode, res.stderr
		if req.Resume && strings.Contains(re.Reason, "No conversation found with session ID") {
			re.Err = ErrSessionMissing
		}
		return nil, re
	}
	if err != nil {
		if re != nil {
			re.Stderr, re.ExitCode = res.stderr, 0
		}
		return nil, err
	}
	if out.SessionID == "" {
		out.SessionID = req.SessionID
	}
	out.Stderr, out.Duration = res.stderr, res.duration
	return out, nil
}
