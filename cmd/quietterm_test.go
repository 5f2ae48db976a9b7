package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Under a terminal that answers no queries (script gives bh a pty and
// answers nothing), bh must not query it: no colour or cursor queries on
// the screen, and no wait for an answer that never comes. The picker alone
// may ask, when it is shown.
func TestNoTerminalQueriesAtStart(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Fatal("script (util-linux) is needed: ", err)
	}
	root := t.TempDir()
	self, _ := os.Executable()
	bh := filepath.Join(root, "bh")
	if err := os.Symlink(self, bh); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "repo")
	repoE2E(t, dir, "prefix: tm\n")
	bhE2E(t, dir, "add", "Shown in a pty")
	for _, args := range []string{"list", "ready", "--help"} {
		c := exec.Command(script, "-qc", bh+" "+args, "/dev/null")
		c.Dir, c.Stdin = dir, strings.NewReader("")
		c.Env = append(os.Environ(), "TERM=xterm-256color")
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("bh %s under script: %v\n%q", args, err, out)
		}
		if strings.Contains(string(out), "\x1b]11;?") || strings.Contains(string(out), "\x1b[6n") {
			t.Errorf("bh %s queried the terminal: %q", args, out)
		}
	}
}
