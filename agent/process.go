package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// defaultGrace is how long an agent gets between SIGTERM and SIGKILL.
const defaultGrace = 5 * time.Second

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
}

// procResult is a process that exited by itself.
type procResult struct {
	stdout, stderr []byte
	exitCode       int
	duration       time.Duration
}

// run starts p in its own process group and waits for it. A timeout or a
// cancelled ctx stops the whole group (the agent's own children included)
// with SIGTERM, then SIGKILL after the grace period, and yields a *RunError
// holding whatever output there was. Each of stdout and stderr is kept up
// to its limit (see capWriter). On Linux the agent is also killed if
// the worker dies (see sysProcAttr); its children are not, which is what
// p.started and KillGroup are for.
func (p proc) run(ctx context.Context) (procResult, error) {
	if len(p.argv) == 0 {
		return procResult{}, runErrorf(nil, "agent command is empty")
	}
	grace := p.grace
	if grace <= 0 {
		grace = defaultGrace
	}
	stdout := newCapWriter(MaxOutputBytes, OutputTailBytes)
	stderr := newCapWriter(MaxStderrBytes, StderrTailBytes)
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	cmd.Dir = p.dir
	cmd.Env = append(os.Environ(), p.env...)
	cmd.Stdin = strings.NewReader(p.stdin)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if p.live != nil {
		cmd.Stdout = io.MultiWriter(stdout, lenient{p.live})
	}
	cmd.SysProcAttr = sysProcAttr()
	// A grandchild that escaped the group could hold the pipes open forever.
	cmd.WaitDelay = grace
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return procResult{}, runErrorf(err, "start agent %s: %v", p.argv[0], err)
	}
	pgid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if p.started != nil {
		p.started(pgid)
	}

	var timeout <-chan time.Time
	if p.timeout > 0 {
		timer := time.NewTimer(p.timeout)
		defer timer.Stop()
		timeout = timer.C
	}
	var stopped *RunError
	var waitErr error
	select {
	case waitErr = <-done:
	case <-timeout:
		stopped = runErrorf(context.DeadlineExceeded, "agent timed out after %s", p.timeout)
		waitErr = stopGroup(pgid, done, grace)
	case <-ctx.Done():
		stopped = runErrorf(context.Cause(ctx), "agent run cancelled: %v", context.Cause(ctx))
		waitErr = stopGroup(pgid, done, grace)
	}
	// Children the agent left behind die with it.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	res := procResult{stdout: stdout.Bytes(), stderr: stderr.Bytes(), duration: time.Since(start),
		exitCode: cmd.ProcessState.ExitCode()}
	if stopped != nil {
		stopped.Raw, stopped.Stderr = res.stdout, res.stderr
		return res, stopped
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) && !errors.Is(waitErr, exec.ErrWaitDelay) {
		return res, &RunError{Reason: fmt.Sprintf("wait for agent: %v", waitErr), Raw: res.stdout,
			Stderr: res.stderr, ExitCode: res.exitCode, Err: waitErr}
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

// stopGroup asks the process group to end, insists after grace, and returns
// the leader's wait error.
func stopGroup(pgid int, done <-chan error, grace time.Duration) error {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		return <-done
	}
}

// exitError describes a non-zero exit, quoting the end of stderr (or of
// stdout when stderr is empty) since that is where agents explain themselves.
func (r procResult) exitError() *RunError {
	tail := lastLines(r.stderr, 5)
	if tail == "" {
		tail = lastLines(r.stdout, 5)
	}
	reason := fmt.Sprintf("agent exited with status %d", r.exitCode)
	if tail != "" {
		reason += ": " + tail
	}
	return &RunError{Reason: reason, Raw: r.stdout, Stderr: r.stderr, ExitCode: r.exitCode}
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
