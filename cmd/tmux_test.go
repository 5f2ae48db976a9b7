package cmd

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
)

// termEnv sets up root for tests that run the bh binary as a person would
// in a terminal: bin/ with bh and fakeagent (this test binary) first on
// PATH, agent/ for the fake agent's plans, state and home inside root.
// The fake agent's plans and log are in root, which a sandbox hides: it
// runs unsandboxed (BH_SANDBOX=off). It returns bin.
func termEnv(t *testing.T, root string) string {
	t.Helper()
	bin := binE2E(t, root)
	os.MkdirAll(filepath.Join(root, "agent"), 0o755)
	for _, kv := range []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "FAKEAGENT_DIR=" + filepath.Join(root, "agent"),
		"XDG_STATE_HOME=" + filepath.Join(root, "state"), "GIT_CONFIG_NOSYSTEM=1", "HOME=" + root, "BH_SANDBOX=off"} {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	return bin
}

// findTmux returns tmux's path, and skips the test under -short.
func findTmux(t *testing.T) string {
	t.Helper()
	fakeapi.Real(t, "tmux")
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatal("tmux is needed (apt-get install tmux): ", err)
	}
	return tmux
}

// tmuxPane is a terminal of its own (a tmux server), 120x30, running one
// shell command in dir.
type tmuxPane struct {
	t    *testing.T
	tmux string
	sock string
	dir  string
}

// panes numbers the panes, for their servers' names.
var panes atomic.Int64

func newTmuxPane(t *testing.T, dir, command string) *tmuxPane {
	t.Helper()
	return newTmuxPaneSized(t, dir, command, 120, 30)
}

// newTmuxPaneSized is newTmuxPane in a terminal of cols x rows.
func newTmuxPaneSized(t *testing.T, dir, command string, cols, rows int) *tmuxPane {
	t.Helper()
	tmux := findTmux(t)
	p := &tmuxPane{t: t, tmux: tmux, dir: dir,
		sock: fmt.Sprintf("bh-test-%d-%s-%d", os.Getpid(), strings.ReplaceAll(t.Name(), "/", "-"), panes.Add(1))}
	t.Cleanup(func() { exec.Command(tmux, "-L", p.sock, "kill-server").Run() })
	p.run("new-session", "-d", "-s", "bh", "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows), command)
	return p
}

func (p *tmuxPane) run(args ...string) string {
	p.t.Helper()
	c := exec.Command(p.tmux, append([]string{"-L", p.sock}, args...)...)
	c.Dir = p.dir
	out, err := c.CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %v: %v %s", args, err, out)
	}
	return string(out)
}

// keys types keys, in tmux's names (Enter, Down, Escape) or as text.
func (p *tmuxPane) keys(keys ...string) {
	p.t.Helper()
	p.run(append([]string{"send-keys", "-t", "bh"}, keys...)...)
}

func (p *tmuxPane) screen() string {
	p.t.Helper()
	return p.run("capture-pane", "-p", "-t", "bh")
}

// painted is the screen with its colours and attributes as escape sequences.
func (p *tmuxPane) painted() string {
	p.t.Helper()
	return p.run("capture-pane", "-e", "-p", "-t", "bh")
}

// waitFor returns the screen once it shows want, and fails the test if it
// does not within 20 s, scaled to the machine.
func (p *tmuxPane) waitFor(want string) string {
	p.t.Helper()
	return p.waitWithin(want, 20*time.Second)
}

// waitWithin is waitFor with a deadline of its own (before scaling), for
// slower programs.
func (p *tmuxPane) waitWithin(want string, d time.Duration) string {
	p.t.Helper()
	for end := time.Now().Add(fakeapi.Patience(d)); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if s := p.screen(); strings.Contains(s, want) {
			return s
		}
	}
	p.t.Fatalf("the pane never showed %q:\n%s", want, p.screen())
	return ""
}
