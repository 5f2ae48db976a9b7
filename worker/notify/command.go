package notify

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent/proc"
)

// command runs a user's shell line with the event in its environment.
type command struct {
	line    string
	timeout time.Duration
}

func (c *command) deliver(ctx context.Context, e Event) error {
	return run(ctx, []string{"sh", "-c", c.line}, e.env(), c.timeout)
}

// grace is how long a command or popup gets between SIGTERM and SIGKILL.
const grace = time.Second

// run runs argv through bh's process helper, its output captured (and
// capped) for the error, its whole process group killed after timeout. A
// background child holding the pipes open cannot hang delivery.
func run(ctx context.Context, argv, env []string, timeout time.Duration) error {
	out := proc.NewCapWriter(16<<10, 8<<10)
	res, err := proc.Run(ctx, proc.Cmd{Argv: argv, Env: env, Stdout: out, Stderr: out, Timeout: timeout,
		Grace: grace})
	var stopped *proc.StoppedError
	switch {
	case errors.As(err, &stopped) && stopped.Timeout > 0:
		return fmt.Errorf("killed after %s", timeout)
	case err != nil:
		return err
	case res.ExitCode != 0:
		return fmt.Errorf("exit status %d%s", res.ExitCode, tail(string(out.Bytes())))
	}
	return nil
}

// tail is the last line of a command's output, for a log line.
func tail(out string) string {
	out = strings.TrimSpace(out)
	if i := strings.LastIndexByte(out, '\n'); i >= 0 {
		out = out[i+1:]
	}
	if r := []rune(out); len(r) > 200 {
		out = string(r[len(r)-200:])
	}
	if out == "" {
		return ""
	}
	return ": " + out
}
