// Package proc starts the child processes bh runs (agents, worktree.setup,
// notification commands, the editor) one way: in a process group of their
// own, killed with bh on Linux, and stopped as a whole group, SIGTERM then
// SIGKILL after a grace period, when their timeout passes or their context
// ends. Nothing a child leaves running can hold bh past that.
package proc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/term"
)

// DefaultGrace is how long a child gets between SIGTERM and SIGKILL.
const DefaultGrace = 5 * time.Second

// Cmd is one child process to run.
type Cmd struct {
	Argv           []string
	Dir            string
	Env            []string // appended to the inherited environment, so it wins
	Stdin          io.Reader
	Stdout, Stderr io.Writer // nil discards
	Timeout        time.Duration
	Grace          time.Duration  // 0 means DefaultGrace
	Started        func(pgid int) // called once the child runs; may be nil
	// Terminal keeps the child in bh's own process group so that it can
	// read the terminal (an editor): cancelling then signals the child
	// alone, and bh's death hangs it up (SIGHUP) rather than killing it.
	// Any other child starts a session of its own, without a controlling
	// terminal, and gets no terminal as its stdin, stdout or stderr: so it
	// cannot push input into the user's terminal (TIOCSTI), nor write to
	// it but through bh.
	Terminal bool
	// Attach, if set, gives the child a pseudo-terminal bh owns (a
	// takeover) in place of Stdin, Stdout and Stderr.
	Attach Attach
	// Launcher, if set, wraps the child (a sandbox); Writable are paths
	// it must still be able to write, Readable paths it must still read
	// (the user's hooks folder, for a commit hook).
	Launcher Launcher
	Writable []string
	Readable []string
}

// Attach opens a pseudo-terminal: its far end tty, the child's stdin,
// stdout, stderr and the controlling terminal of its session, and
// detach, which Run calls once the child is gone.
type Attach func() (tty *os.File, detach func(), err error)

// Result is how a child ended.
type Result struct {
	PID      int // 0 when it never started
	ExitCode int // -1 when a signal ended it
	Duration time.Duration
	Limit    string // a limit its launcher set that it passed (the kernel ended one of its processes), or ""
}

// limitPoll is how often Run asks whether a child passed a limit.
const limitPoll = time.Second

// StoppedError is a child bh ended before it exited by itself.
type StoppedError struct {
	Timeout time.Duration // its own timeout passed; 0 when its context ended
	Cause   error         // context.DeadlineExceeded, or the context's cause
	Limit   string        // the limit it passed (Launch.Limit), or ""
}

func (e *StoppedError) Error() string {
	if e.Limit != "" {
		return e.Limit
	}
	if e.Timeout > 0 {
		return fmt.Sprintf("timed out after %s", e.Timeout)
	}
	return fmt.Sprintf("cancelled: %v", e.Cause)
}

func (e *StoppedError) Unwrap() error { return e.Cause }

// Run starts c and waits for it. A child that exits by itself, whatever
// its status, gives a nil error; one that was stopped gives a
// *StoppedError. Once the child is gone, whatever it left in its group
// is killed.
func Run(ctx context.Context, c Cmd) (Result, error) {
	if len(c.Argv) == 0 {
		return Result{}, errors.New("empty command")
	}
	grace := c.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	l, err := c.launch()
	if err != nil {
		return Result{}, err
	}
	Starting(l.Argv)
	defer l.end()
	cmd, err := c.command(&l, grace)
	if err != nil {
		return Result{}, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Result{}, fmt.Errorf("start %s: %w", c.Argv[0], err)
	}
	target := -cmd.Process.Pid // the whole group
	if c.Terminal {
		target = cmd.Process.Pid
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if c.Started != nil {
		c.Started(cmd.Process.Pid)
	}
	stopped, waitErr := await(ctx, c, l, target, done, grace)
	if !c.Terminal {
		_ = syscall.Kill(target, syscall.SIGKILL) // what the child left behind dies with it
	}
	res := Result{PID: cmd.Process.Pid, ExitCode: cmd.ProcessState.ExitCode(), Duration: time.Since(start)}
	if stopped != nil {
		return res, stopped
	}
	res.Limit = l.limit(true)
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) && !errors.Is(waitErr, exec.ErrWaitDelay) {
		return res, fmt.Errorf("wait for %s: %w", c.Argv[0], waitErr)
	}
	return res, nil
}

// command is the child c as l launches it: its standard files (a
// terminal of bh's own, or none of the user's), its inherited
// descriptors, its session and group.
func (c Cmd) command(l *Launch, grace time.Duration) (*exec.Cmd, error) {
	cmd := exec.Command(l.Argv[0], l.Argv[1:]...)
	cmd.Dir, cmd.Env, cmd.ExtraFiles = c.Dir, l.Env, l.Files
	cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Stdin, c.Stdout, c.Stderr
	switch {
	case c.Attach != nil:
		tty, detach, err := c.Attach()
		if err != nil {
			return nil, fmt.Errorf("start %s: %w", c.Argv[0], err)
		}
		cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
		l.Done = Then(detach, l.Done)
	case !c.Terminal:
		cmd.Stdin, cmd.Stdout, cmd.Stderr = noTerminal(c.Stdin), pipeTerminal(c.Stdout), pipeTerminal(c.Stderr)
	}
	cmd.SysProcAttr = sysProcAttr(c.Terminal, c.Attach != nil)
	// A grandchild that left the group could hold the pipes open forever.
	cmd.WaitDelay = grace
	return cmd, nil
}

// noTerminal is r, or nothing (/dev/null) when r is a terminal: a child
// that is not given the terminal gets no keys from it.
func noTerminal(r io.Reader) io.Reader {
	if f, ok := r.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return r
}

// pipeTerminal is w, or w behind a pipe when w is a terminal, so that the
// child holds no descriptor of the terminal itself (for its ioctls, or
// bubblewrap's /dev/console, which it binds from its stdout's terminal).
func pipeTerminal(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return struct{ io.Writer }{f}
	}
	return w
}

// launch returns how to start c, rewritten by its launcher if it has one.
func (c Cmd) launch() (Launch, error) {
	l := Launch{Argv: c.Argv, Env: append(os.Environ(), c.Env...), Dir: c.Dir, Writable: c.Writable, Readable: c.Readable,
		Terminal: c.Terminal}
	if c.Launcher == nil {
		return l, nil
	}
	l, err := c.Launcher.Launch(l)
	if err != nil {
		return Launch{}, fmt.Errorf("start %s: %w", c.Argv[0], err)
	}
	return l, nil
}

// await waits for the started child until it exits, its timeout passes,
// ctx ends or it passes a limit (limit, if set), and stops it in the last
// three cases.
func await(ctx context.Context, c Cmd, l Launch, target int, done <-chan error, grace time.Duration) (*StoppedError, error) {
	var timeout, poll <-chan time.Time
	if c.Timeout > 0 {
		timer := time.NewTimer(c.Timeout)
		defer timer.Stop()
		timeout = timer.C
	}
	if l.Limit != nil {
		ticker := time.NewTicker(limitPoll)
		defer ticker.Stop()
		poll = ticker.C
	}
	for {
		select {
		case err := <-done:
			return nil, err
		case <-timeout:
			return &StoppedError{Timeout: c.Timeout, Cause: context.DeadlineExceeded}, stop(target, done, grace)
		case <-ctx.Done():
			return &StoppedError{Cause: context.Cause(ctx)}, stop(target, done, grace)
		case <-poll:
			if why := l.limit(false); why != "" {
				return &StoppedError{Limit: why, Cause: errors.New(why)}, stop(target, done, grace)
			}
		}
	}
}

// stop asks target (a pid, or a group as -pgid) to end, insists after
// grace, and returns the child's wait error.
func stop(target int, done <-chan error, grace time.Duration) error {
	_ = syscall.Kill(target, syscall.SIGTERM)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		_ = syscall.Kill(target, syscall.SIGKILL)
		return <-done
	}
}
