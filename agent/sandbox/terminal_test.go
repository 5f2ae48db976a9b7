package sandbox

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/proc"
	"github.com/creack/pty"
)

// TestNoTerminalInTheSandbox: a sandboxed process whose worker writes to
// a terminal finds no terminal to push input into (no controlling
// terminal, none as its standard files, no console); on a pseudo-terminal
// that is its controlling terminal (a takeover's), the seccomp filter
// refuses TIOCSTI, with the request's high bits set too, and TIOCLINUX.
// Outside the sandbox the same attack pushes its line: the attack works.
func TestNoTerminalInTheSandbox(t *testing.T) {
	bwrap := needBwrap(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	wt := t.TempDir()
	b := Bwrap{Path: bwrap, Policy: Policy{Readable: []string{filepath.Dir(self)}, Writable: []string{wt}, Env: append(DefaultEnv, pushEnv)}}
	run := func(name string, l proc.Launcher, onTTY bool) string {
		t.Helper()
		ptm, tty, err := pty.Open()
		if err != nil {
			t.Fatal(err)
		}
		defer ptm.Close()
		defer tty.Close()
		go io.Copy(io.Discard, ptm)
		out := filepath.Join(wt, name)
		c := proc.Cmd{Argv: []string{self}, Env: []string{pushEnv + "=" + out}, Launcher: l, Stdin: tty, Stdout: tty, Stderr: tty}
		if onTTY {
			c.Attach = func() (*os.File, func(), error) { return tty, func() {}, nil }
		}
		if res, err := proc.Run(context.Background(), c); err != nil || res.ExitCode != 0 {
			t.Fatalf("%s: %v, exit %d", name, err, res.ExitCode)
		}
		report, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(report)
	}
	refused := "operation not permitted"
	for _, tt := range []struct {
		name  string
		l     proc.Launcher
		tty   bool
		wants []string
	}{
		{"plain", nil, true, []string{"/dev/tty tiocsti 0x5412: pushed", "fd 0 tiocsti 0x5412: pushed"}},
		{"sandboxed", b, false, []string{"/dev/tty open: open /dev/tty: no such device or address",
			"/dev/console open: open /dev/console: no such file or directory", "fd 0: not a terminal", "fd 1: not a terminal", "fd 2: not a terminal"}},
		{"sandboxed-on-its-pty", b, true, []string{"/dev/tty tiocsti 0x5412: " + refused, "/dev/tty tiocsti 0x100005412: " + refused,
			"/dev/tty tioclinux: " + refused, "fd 0 tiocsti 0x5412: " + refused, "fd 2 tiocsti 0x100005412: " + refused}},
	} {
		got := run(tt.name, tt.l, tt.tty)
		for _, want := range tt.wants {
			if !strings.Contains(got, want+"\n") {
				t.Errorf("%s: no %q in:\n%s", tt.name, want, got)
			}
		}
		if tt.l != nil && strings.Contains(got, "pushed") {
			t.Errorf("%s: the sandbox let input through:\n%s", tt.name, got)
		}
	}
}
