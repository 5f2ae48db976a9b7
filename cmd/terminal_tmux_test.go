package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
)

// The run's terminal is not the user's (issue 38): bh worker --once in an
// interactive shell on a terminal (tmux), whose agent, worktree.setup and
// check each push "touch CANARY" into every terminal they can reach
// (ttypush): when the worker returns, the shell runs nothing of it.
func TestAgentCannotTypeIntoTheUsersShell(t *testing.T) {
	root := t.TempDir()
	bin := termEnv(t, root)
	t.Setenv("BH_SANDBOX", "") // the config's: required
	canary := filepath.Join(root, "canary")
	push := filepath.Join(bin, "ttypush") + " " + canary
	dir := filepath.Join(root, "repo")
	repoE2E(t, dir, fmt.Sprintf("prefix: tt\nsandbox: required\nagent:\n  kind: command\n  command: [%s, %s, agent]\n"+
		"worktree:\n  setup: %s\nchecks:\n  - %s\n", filepath.Join(bin, "ttypush"), canary, push, push))
	id := strings.TrimSpace(bhE2E(t, dir, "add", "Push into the terminal"))

	term := newTmuxPane(t, dir, "PS1='$ ' sh -i")
	term.keys("bh worker --once; echo EXITED $?", "Enter")
	term.waitWithin("EXITED", claudePatience)
	term.keys("echo AFTER $((6*7))", "Enter") // whatever was pushed runs before this
	p := term.waitFor("AFTER 42")
	if _, err := os.Stat(canary); err == nil {
		t.Fatalf("the shell ran what the sandboxed processes pushed:\n%s", p)
	}
	done := bhTask(t, dir, id)
	if done.State != task.Closed {
		t.Fatalf("%s is %s (%s):\n%s", id, done.State, done.Summary, p)
	}
	if show := bhE2E(t, dir, "show", id); !strings.Contains(show, "checks: green") {
		t.Errorf("the check did not run:\n%s", show)
	}
}
