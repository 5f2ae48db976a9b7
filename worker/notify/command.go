package notify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// command runs a user's shell line with the event in its environment.
type command struct {
	line    string
	timeout time.Duration
}

func (c *command) deliver(ctx context.Context, e Event) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", c.line)
	cmd.Env = append(os.Environ(), e.env()...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// A background child holding the pipes open must not hang delivery.
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("killed after %s", c.timeout)
	}
	if err != nil {
		return fmt.Errorf("%w%s", err, tail(out.String()))
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
