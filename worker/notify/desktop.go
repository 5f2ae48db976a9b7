package notify

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// desktop pops a notification through notify-send. Without it on PATH the
// target is off: said once, then silent, since that is a setup, not a failure.
type desktop struct {
	timeout time.Duration
	logf    func(string, ...any)
	missing sync.Once
}

func (d *desktop) deliver(ctx context.Context, e Event) error {
	bin, err := exec.LookPath("notify-send")
	if err != nil {
		d.missing.Do(func() {
			d.logf("notify: desktop: notify-send not found on PATH; desktop notifications are off")
		})
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	args := []string{"--app-name=bh"}
	if e.Name == EventInputRequested || e.Name == EventTaskFailed {
		args = append(args, "--urgency=critical")
	}
	args = append(args, "bh: "+e.TaskID+" "+strings.ReplaceAll(e.Name, ".", " "), desktopBody(e))
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.WaitDelay = time.Second
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("notify-send: %w%s", err, tail(string(out)))
	}
	return nil
}

func desktopBody(e Event) string {
	body := e.Title
	for _, s := range []string{e.Question, e.Summary} {
		if s != "" {
			body += "\n" + s
		}
	}
	return body
}
