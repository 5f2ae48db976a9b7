package git

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// commitHooks are the hooks git commit runs that may refuse it, in the
// order it runs them.
var commitHooks = []string{"pre-commit", "prepare-commit-msg", "commit-msg"}

// HookRefused is a commit a hook of the repository refused: not the
// agent's error, not a failure of the task, but the repository's rule.
type HookRefused struct {
	Hooks  []string // the commit hooks installed, one of which refused
	Output string   // what git and the hook printed
}

func (e *HookRefused) Error() string {
	return fmt.Sprintf("the repository's %s hook refused the commit: %s", strings.Join(e.Hooks, " or "), e.Output)
}

// hookRefusal is a failed git commit's err as a *HookRefused when the
// worktree has a commit hook installed that could have refused it; err
// as it was otherwise.
func (w *Worktree) hookRefusal(err error) error {
	var ge *gitError
	var le *LockedError
	if !errors.As(err, &ge) || errors.As(err, &le) {
		return err
	}
	out, perr := w.wt.Read(nil, "rev-parse", "--git-path", "hooks")
	if perr != nil {
		return err
	}
	dir := strings.TrimSpace(string(out))
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(w.Path, dir)
	}
	var hooks []string
	for _, h := range commitHooks {
		if fi, err := os.Stat(filepath.Join(dir, h)); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			hooks = append(hooks, h)
		}
	}
	if len(hooks) == 0 {
		return err
	}
	output := strings.TrimSpace(strings.TrimSpace(ge.Stderr) + "\n" + strings.TrimSpace(ge.Stdout))
	if output == "" {
		output = fmt.Sprintf("(it printed nothing; git exited %d)", ge.Code)
	}
	return &HookRefused{Hooks: hooks, Output: output}
}
