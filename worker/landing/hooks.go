package landing

import (
	"context"
	"errors"
	"strings"

	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/agent/untrusted"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git"
)

// Hooks runs the user's commit hooks (pre-commit, prepare-commit-msg,
// commit-msg: git.Repo.CommitHooks) on a task's work before bh commits
// it, each as a check: through Checker.Run, sandboxed as the agent is, in
// its worktree, over the index that is about to be committed. bh's own
// git runs no hook (the hook is the user's, what it runs, a Makefile or
// node_modules/.bin, the agent's). A hook that refuses is a failed check:
// its output goes back to the agent, and nothing is committed.
type Hooks struct {
	Checker
	Off    bool // none runs: a human said to land the work unchecked
	List   []git.CommitHook
	ID     string
	Target string
	Round  int
	// Events are the hooks' runs, the last failed when one refused.
	Events []task.Event
}

// errHookRefused stops the commit when a hook refused it.
var errHookRefused = errors.New("a commit hook refused the work")

// verify runs the hooks over the staged work, msgFile holding the commit
// message, and returns the message as they left it ("" when they left
// none bh can read as a plain file): git.Work.Verify.
func (h *Hooks) verify(ctx context.Context, msgFile string) (string, error) {
	for _, hk := range h.List {
		argv := append([]string{hk.Path, msgFile}, hk.Args...)
		if hk.Name == "pre-commit" {
			argv = argv[:1]
		}
		ev, err := h.run(ctx, h.ID, h.Target, strings.Join(argv, " "),
			proc.Cmd{Argv: argv, Readable: []string{hk.Bind}, Env: []string{"GIT_EDITOR=:"}}, h.Round)
		if err != nil {
			return "", &hookStopped{err}
		}
		h.Events = append(h.Events, ev)
		if ev.ExitCode != 0 {
			return "", errHookRefused
		}
	}
	data, err := untrusted.ReadFile(msgFile, 64<<10) // in the agent's reach: no link followed
	if msg := strings.TrimSpace(string(data)); err == nil && msg != "" {
		return msg + "\n", nil
	}
	return "", nil
}

// hookStopped is a hook that did not run to its end (bh stopping, the
// task taken back): no verdict on the work.
type hookStopped struct{ err error }

func (e *hookStopped) Error() string { return e.err.Error() }

func (e *hookStopped) Unwrap() error { return e.err }
