package git

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ownRebase refuses to continue a rebase whose state an agent could have
// written (the worktree's admin dir is writable in its sandbox) to make
// git, outside the sandbox, do more than replay commits: bh's rebases
// only pick, so a todo list with anything else (exec runs a command line,
// update-ref moves another branch, merge and label rewrite history) or a
// merge strategy git would look up as a program is not bh's.
func (w *Worktree) ownRebase() error {
	dir := filepath.Join(w.wt.gitDir, "rebase-merge")
	if data, err := os.ReadFile(filepath.Join(dir, "strategy")); err == nil {
		if s := strings.TrimSpace(string(data)); s != "ort" && s != "recursive" {
			return fmt.Errorf("the rebase in progress in %s is not bh's: merge strategy %q", w.Path, s)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "git-rebase-todo"))
	if os.IsNotExist(err) {
		return nil // none left to do, or the apply backend's (patches, no commands)
	}
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		cmd, _, _ := strings.Cut(line, " ")
		switch cmd {
		case "", "pick", "p", "drop", "d", "noop":
		default:
			if !strings.HasPrefix(line, "#") {
				return fmt.Errorf("the rebase in progress in %s is not bh's: its todo list says %q", w.Path, line)
			}
		}
	}
	return nil
}
