package agent

import (
	"context"
	"time"
)

// CommandConfig configures a generic agent command.
type CommandConfig struct {
	Argv    []string      // program and arguments
	Timeout time.Duration // default for requests without their own; 0 means none
}

// Command runs any program as the agent. It gets the prompt on stdin and
// BH_TASK_ID, BH_SESSION_ID and BH_RESUME (1 when resuming) in its
// environment, runs in the repository root, and must print a result object
// (see Result) on stdout.
type Command struct {
	cfg   CommandConfig
	grace time.Duration // SIGTERM to SIGKILL; tests shorten it
}

// NewCommand returns a Runner for the configured program.
func NewCommand(cfg CommandConfig) *Command { return &Command{cfg: cfg} }

// Run runs the program once.
func (c *Command) Run(ctx context.Context, req Request) (*Outcome, error) {
	if len(c.cfg.Argv) == 0 {
		return nil, runErrorf(nil, "agent command is not configured")
	}
	resume := ""
	if req.Resume {
		resume = "1"
	}
	env := append([]string{"BH_TASK_ID=" + req.TaskID, "BH_SESSION_ID=" + req.SessionID, "BH_RESUME=" + resume},
		req.Env...)
	p := proc{argv: c.cfg.Argv, dir: req.Dir, env: env, stdin: req.Prompt,
		timeout: timeoutOf(req, c.cfg.Timeout), grace: c.grace, started: req.Started, live: req.Live,
		launch: req.Launcher}
	res, err := p.run(ctx)
	if err != nil {
		return nil, err
	}
	if res.exitCode != 0 {
		return nil, res.exitError()
	}
	result, err := ParseResult(res.stdout)
	if err != nil {
		return nil, &RunError{Reason: "agent output: " + err.Error(), Raw: res.stdout, Stderr: res.stderr, Err: err}
	}
	return &Outcome{Result: result, SessionID: req.SessionID, Raw: res.stdout, Stderr: res.stderr,
		Duration: res.duration}, nil
}

// timeoutOf picks the request's timeout, else the runner's default.
func timeoutOf(req Request, def time.Duration) time.Duration {
	if req.Timeout > 0 {
		return req.Timeout
	}
	return def
}
