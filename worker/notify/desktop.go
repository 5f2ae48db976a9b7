package notify

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// desktop pops a notification: notify-send on Linux and the BSDs,
// osascript on macOS. Without the program on PATH the target is off:
// said once, then silent, since that is a setup, not a failure.
type desktop struct {
	goos    string // runtime.GOOS; a field so tests can be macOS
	timeout time.Duration
	logf    func(string, ...any)
	missing sync.Once
}

func (d *desktop) deliver(ctx context.Context, e Event) error {
	name, args := desktopCommand(d.goos, e)
	bin, err := exec.LookPath(name)
	if err != nil {
		d.missing.Do(func() {
			d.logf("notify: desktop: %s not found on PATH; desktop notifications are off", name)
		})
		return nil
	}
	if err := run(ctx, append([]string{bin}, args...), nil, d.timeout); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// showArgv is the AppleScript that osascript runs: the texts come in as
// its arguments, never spliced into the script, because the question is
// the agent's text and a quote in it would otherwise end the string.
var showArgv = []string{"-e", "on run argv", "-e", "display notification (item 2 of argv) with title (item 1 of argv)", "-e", "end run"}

// desktopCommand is the program and arguments that show e on goos.
func desktopCommand(goos string, e Event) (string, []string) {
	title, body := headline(e), desktopBody(e)
	if goos == "darwin" {
		// The title starts with "bh:", so osascript takes no text for an option.
		return "osascript", append(append([]string{}, showArgv...), title, body)
	}
	args := []string{"--app-name=bh"}
	if urgent(e) {
		args = append(args, "--urgency=critical")
	}
	// "--": a body starting with a dash is text, not an option.
	return "notify-send", append(args, "--", title, body)
}

// desktopBody is the details and the task's page.
func desktopBody(e Event) string {
	lines := details(e, false)
	if e.URL != "" {
		lines = append(lines, e.URL)
	}
	return strings.Join(lines, "\n")
}
