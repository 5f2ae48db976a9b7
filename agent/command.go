package agent

import (
	"context"
	"regexp"
	"time"
)

// CommandConfig configures a generic agent command.
type CommandConfig struct {
	Argv    []string      // program and arguments
	Timeout time.Duration // default for requests without their own; 0 means none
	// Outage matches what the program prints (the last lines of its
	// stderr or stdout) when its service is out: agent.outage in the
	// config. nil: only bh's own reading (see commandOutage).
	Outage *regexp.Regexp
}

// ExitOutage is the exit status by which a command agent says its service
// is out for now (sysexits' EX_TEMPFAIL): the worker pauses, no task fails.
const ExitOutage = 75

// Command runs any program as the agent. It gets the prompt on stdin and
// BH_TASK_ID, BH_SESSION_ID, BH_RESUME (1 when resuming) and BH_PHASE
// (plan in a planning run, which must change no file) in its environment, runs in the repository root, and must print a result object
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
	phase := ""
	if req.ReadOnly {
		phase = "plan"
	}
	env := append([]string{"BH_TASK_ID=" + req.TaskID, "BH_SESSION_ID=" + req.SessionID, "BH_RESUME=" + resume,
		"BH_PHASE=" + phase}, req.Env...)
	p := proc{argv: c.cfg.Argv, dir: req.Dir, env: env, stdin: req.Prompt,
		timeout: timeoutOf(req, c.cfg.Timeout), grace: c.grace, started: req.Started, live: req.Live,
		launch: req.Launcher}
	res, err := p.run(ctx)
	if err != nil {
		return nil, err
	}
	if res.exitCode != 0 {
		return nil, c.outage(res, res.exitError())
	}
	result, err := ParseResult(res.stdout)
	if err != nil {
		return nil, c.outage(res, &RunError{Reason: "agent output: " + err.Error(), Raw: res.stdout, Stderr: res.stderr, Err: err})
	}
	return &Outcome{Result: result, SessionID: req.SessionID, Raw: res.stdout, Stderr: res.stderr,
		Duration: res.duration}, nil
}

// outage marks re, a run of the command that gave no result, as an outage
// when the program says its service is out, as claude and codex are read:
// its exit status ExitOutage, the config's outage pattern on the last
// lines it printed, or the words of an API out of reach, a refused login
// or a usage limit there (claude's own "API Error: Connection refused
// (ECONNREFUSED)" among them). Only the last lines count: an agent's
// failing tests may well have printed "connection refused" earlier on.
func (c *Command) outage(res procResult, re *RunError) *RunError {
	tails := []string{lastLines(res.stderr, 5), lastLines(res.stdout, 5)}
	for _, tail := range tails {
		if o := outageOfText(tail); o != "" {
			re.Outage = o
			if o == OutageLimit {
				re.Limit = limitOfText(tail, time.Now())
			}
			return re
		}
	}
	for _, tail := range tails {
		if c.cfg.Outage != nil && tail != "" && c.cfg.Outage.MatchString(tail) {
			re.Outage = OutageOverloaded
		}
	}
	if res.exitCode == ExitOutage {
		re.Outage = OutageOverloaded
	}
	return re
}

// timeoutOf picks the request's timeout, else the runner's default.
func timeoutOf(req Request, def time.Duration) time.Duration {
	if req.Timeout > 0 {
		return req.Timeout
	}
	return def
}
