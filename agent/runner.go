package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	xproc "github.com/bh-tracker/bh/agent/proc"
)

// Request is one agent run.
type Request struct {
	Prompt    string
	Dir       string        // the agent's working directory, in the task's worktree
	SessionID string        // UUID naming the conversation (codex: the thread to resume)
	Resume    bool          // continue SessionID instead of starting it
	TaskID    string        // for the agent's environment and logs
	Timeout   time.Duration // 0 means none beyond the runner's own
	Env       []string      // extra environment, "KEY=value", overriding the inherited one
	Name      string        // a title for the session, shown by claude --resume
	System    string        // appended to the agent's system prompt (the result contract), if it has one
	// ReadOnly is a planning run (plan: true): the agent reads and asks,
	// and may not write. Claude runs in its plan mode, codex in its
	// read-only sandbox, a command agent gets BH_PHASE=plan.
	ReadOnly bool
	// Outbox is the run's one folder of bh's that the agent may write: bh's
	// MCP server records the questions there ($BH_OUTBOX).
	Outbox string
	// AllowTools are tool rules a human allowed for this task (an answered
	// permission prompt), on top of the configured ones.
	AllowTools []string
	// Live gets the agent's standard output as it comes (claude's
	// stream-json transcript), so that a killed run leaves it behind.
	Live io.Writer
	// Step is told each tool call the agent makes, in a few words.
	Step func(step string)
	// Session is told the agent's session id as soon as the agent names it
	// (codex makes its thread's id up itself), before the run can end.
	Session func(id string)
	// Limit is told each usage-limit report the agent's CLI makes, as it
	// comes (allowed, allowed_warning, rejected and when it resets).
	Limit func(Limit)
	// Spent is told the run's spend so far each time it grows, as the
	// agent streams it (claude's per-message usage priced, codex's tokens).
	Spent func(Spend)

	// Started, if set, is called with the agent's process group id as soon
	// as the agent runs, before Run waits for it, so that the caller can
	// write it down: should the caller die, proc.KillGroup stops what is left.
	Started func(pgid int)
	// Launcher starts the agent's process: inside the run's sandbox, or
	// plainly when nil (package proc's Launcher, package sandbox).
	Launcher xproc.Launcher
}

// Outcome is a run that ended with a readable result.
type Outcome struct {
	Result    Result
	SessionID string // as reported by the agent
	Raw       []byte // stdout
	Stderr    []byte
	Duration  time.Duration
	Denials   []string // tool calls the agent's permissions refused, in a few words
	Turns     int      // as reported by the agent; 0 when it does not say
	Spend     Spend    // the run's tokens, and their cost as the agent reported it at the end
}

// Runner runs an agent.
type Runner interface {
	Run(ctx context.Context, req Request) (*Outcome, error)
}

// RunnerFunc adapts a function to Runner.
type RunnerFunc func(ctx context.Context, req Request) (*Outcome, error)

// Run calls f.
func (f RunnerFunc) Run(ctx context.Context, req Request) (*Outcome, error) { return f(ctx, req) }

// ErrSessionMissing is a RunError's Err when the agent has no session to
// resume: claude, killed in its first request, may leave a transcript it
// cannot load ("No conversation found with session ID").
var ErrSessionMissing = errors.New("the agent has no such session to resume")

// RunError is a run that produced no usable result: a non-zero exit, garbage
// output, an error reported by the agent, a timeout or a cancellation. It
// keeps the raw output so that the caller can still log it.
type RunError struct {
	Reason   string
	Raw      []byte // stdout
	Stderr   []byte
	ExitCode int   // -1 when the process did not exit on its own
	Err      error // underlying cause, if any (context.Canceled, ErrNoResult, ...)
	// Outage is set when the trouble is the agent's, not the task's: its
	// binary missing, its API refusing the key, overloaded or rate-limited.
	Outage Outage
	// Limit is what the CLI said of the usage limit that cut the run
	// short (Outage is OutageLimit), nil when it said nothing readable.
	Limit *Limit
	// Spend is what the run cost until it ended.
	Spend Spend
}

func (e *RunError) Error() string {
	switch {
	case e.Reason != "":
		return e.Reason
	case e.Err != nil:
		return "agent run failed: " + e.Err.Error()
	}
	return "agent run failed"
}

func (e *RunError) Unwrap() error { return e.Err }

func runErrorf(err error, format string, args ...any) *RunError {
	return &RunError{Reason: fmt.Sprintf(format, args...), Err: err, ExitCode: -1}
}

// Outage is trouble with the agent itself, its installation or its
// service, rather than with the task: no run can succeed until it passes.
type Outage string

const (
	OutageMissing    Outage = "missing"     // the agent's binary is not installed
	OutageAuth       Outage = "auth"        // the service refuses the credentials (401, 403)
	OutageOverloaded Outage = "overloaded"  // the service is down or overloaded (500, 502, 503, 529)
	OutageLimit      Outage = "usage_limit" // the account's rate or usage limit (429)
	// OutageUnreachable: the API cannot be reached at all (a refused
	// connection, a failed DNS lookup, a request that timed out): there
	// is no HTTP status to classify.
	OutageUnreachable Outage = "unreachable"
)

// Lasting reports whether the outage needs a human (credentials, an
// install) rather than time.
func (o Outage) Lasting() bool { return o == OutageMissing || o == OutageAuth }

// errRefused stops a claude that retries an authentication failure.
var errRefused = errors.New("the API refuses the credentials")

// LookupEnv reads key from env ("KEY=value", the last one wins), else from
// the process's environment: what a process started with env appended to
// the inherited environment sees.
func LookupEnv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return os.Getenv(key)
}
