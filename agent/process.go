package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	xproc "github.com/bh-tracker/bh/agent/proc"
)

// proc is one agent process to run.
type proc struct {
	argv    []string
	dir     string
	env     []string // appended to the inherited environment, so it wins
	stdin   string
	timeout time.Duration
	grace   time.Duration
	started func(pgid int) // called once the process runs; may be nil
	live    io.Writer      // gets stdout as it comes; may be nil
	launch  xproc.Launcher // the sandbox, or nil
	write   []string       // paths it writes besides the sandbox's own
}

// procResult is a process that exited by itself.
type procResult struct {
	stdout, stderr []byte
	exitCode       int
	duration       time.Duration
}

// run runs p through bh's one process helper (package proc): a timeout or
// a cancelled ctx stops the agent's whole process group and yields a
// *RunError holding whatever output there was. Each of stdout and stderr
// is kept up to its limit. On Linux the agent also dies with the worker;
// its children do not, which is what p.started and proc.KillGroup are for.
func (p proc) run(ctx context.Context) (procResult, error) {
	if len(p.argv) == 0 {
		return procResult{}, runErrorf(nil, "agent command is empty")
	}
	stdout := xproc.NewCapWriter(MaxOutputBytes, OutputTailBytes)
	stderr := xproc.NewCapWriter(MaxStderrBytes, StderrTailBytes)
	c := xproc.Cmd{Argv: p.argv, Dir: p.dir, Env: p.env, Stdin: strings.NewReader(p.stdin),
		Stdout: stdout, Stderr: stderr, Timeout: p.timeout, Grace: p.grace, Started: p.started,
		Launcher: p.launch, Writable: p.write}
	if p.live != nil {
		c.Stdout = io.MultiWriter(stdout, lenient{p.live})
	}
	r, err := xproc.Run(ctx, c)
	if r.PID == 0 && err != nil {
		return procResult{}, runErrorf(errors.Unwrap(err), "start agent %s: %v", p.argv[0], errors.Unwrap(err))
	}
	res := procResult{stdout: stdout.Bytes(), stderr: stderr.Bytes(), exitCode: r.ExitCode, duration: r.Duration}
	var stopped *xproc.StoppedError
	switch {
	case errors.As(err, &stopped) && stopped.Limit != "":
		return res, &RunError{Reason: "agent stopped: " + stopped.Limit, Raw: res.stdout,
			Stderr: res.stderr, ExitCode: -1, Err: stopped}
	case err == nil && r.Limit != "": // something in the run was refused or killed: what it reports is not to be trusted
		return res, &RunError{Reason: fmt.Sprintf("agent exited with status %d, but %s", r.ExitCode, r.Limit), Raw: res.stdout,
			Stderr: res.stderr, ExitCode: r.ExitCode}
	case errors.As(err, &stopped) && stopped.Timeout > 0:
		return res, &RunError{Reason: fmt.Sprintf("agent timed out after %s", p.timeout), Raw: res.stdout,
			Stderr: res.stderr, ExitCode: -1, Err: context.DeadlineExceeded}
	case stopped != nil:
		return res, &RunError{Reason: fmt.Sprintf("agent run cancelled: %v", stopped.Cause), Raw: res.stdout,
			Stderr: res.stderr, ExitCode: -1, Err: stopped.Cause}
	case err != nil:
		return res, &RunError{Reason: fmt.Sprintf("wait for agent: %v", errors.Unwrap(err)), Raw: res.stdout,
			Stderr: res.stderr, ExitCode: res.exitCode, Err: errors.Unwrap(err)}
	}
	return res, nil
}

// lenient passes writes on and never fails: a live log that cannot be
// written must not stop the agent's output from being read.
type lenient struct{ w io.Writer }

func (l lenient) Write(p []byte) (int, error) {
	l.w.Write(p)
	return len(p), nil
}

// exitError describes a non-zero exit, quoting the end of stderr (or of
// stdout when stderr is empty) since that is where agents explain themselves.
func (r procResult) exitError() *RunError {
	reason := fmt.Sprintf("agent exited with status %d", r.exitCode)
	if tail := r.tail(5); tail != "" {
		reason += ": " + tail
	}
	return &RunError{Reason: reason, Raw: r.stdout, Stderr: r.stderr, ExitCode: r.exitCode}
}

// stopped is the RunError for a run ctx stopped because its API refused
// the credentials (refused) or could not be reached (unreachable), else nil.
func (r procResult) stopped(ctx context.Context, refused, unreachable string) *RunError {
	re := &RunError{Raw: r.stdout, Stderr: r.stderr, ExitCode: -1}
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errRefused):
		re.Reason, re.Err, re.Outage = refused, errRefused, OutageAuth
	case errors.Is(cause, errUnreachable):
		re.Reason, re.Err, re.Outage = unreachable, errUnreachable, OutageUnreachable
	default:
		return nil
	}
	return re
}

// tail is the last n lines of stderr, or of stdout when stderr is empty.
func (r procResult) tail(n int) string {
	if t := lastLines(r.stderr, n); t != "" {
		return t
	}
	return lastLines(r.stdout, n)
}

// lastLines returns up to n trailing non-blank lines of b, joined with "; "
// and capped in length so a reason stays one readable line.
func lastLines(b []byte, n int) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	s := strings.Join(lines, "; ")
	if len(s) > 500 {
		s = "..." + strings.ToValidUTF8(s[len(s)-497:], "")
	}
	return s
}

// Limits on the output kept from one agent run: an agent that prints
// gigabytes must not exhaust the worker's memory. Past the limit the middle
// is dropped. The result object comes at the end of stdout and may be large
// (a 5 MB one is valid), so stdout keeps its first OutputHeadBytes for
// diagnosis and the rest of MaxOutputBytes from its end; stderr, read only
// by people, keeps MaxStderrBytes, mostly from its end as well.
const (
	MaxOutputBytes  = 16 << 20
	OutputHeadBytes = 64 << 10
	OutputTailBytes = MaxOutputBytes - OutputHeadBytes
	MaxStderrBytes  = 1 << 20
	StderrTailBytes = 64 << 10
)
