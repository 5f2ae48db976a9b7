package worker

import (
	"context"

	"github.com/bh-tracker/bh/agent/proc"
)

// inTree runs one of bh's own commands for r's task in its worktree
// (worktree.setup, a check): code the agent may have written, so it
// starts as the agent does, through proc.Run in the run's sandbox,
// whichever path got here (a run, a recovery after a crash, bh land).
// It dies with the worker (proc's process group and parent-death
// signal; inside bubblewrap, --die-with-parent). c gives the command,
// its output, timeout and extra variables; the rest is filled in.
func (w *worker) inTree(ctx context.Context, r *run, c proc.Cmd) (proc.Result, error) {
	launch, err := w.launcher(r)
	if err != nil {
		return proc.Result{}, err
	}
	c.Dir, c.Launcher = r.wt.Path, launch
	// The agent's own environment (the options' HOME, say): the sandbox's
	// policy is built from it, so the command sees what the agent sees.
	env := []string{"BH_TASK_ID=" + r.t.ID, "BH_WORKTREE=" + r.wt.Path, "BH_ROOT=" + w.s.Root}
	c.Env = append(append(env, c.Env...), w.opt.Env...)
	return proc.Run(ctx, c)
}

// launcher is how r's processes start, decided by jail.Launcher once per
// run: a recovered run or bh land decides it here, as a run's prepare
// does before its setup and agent.
func (w *worker) launcher(r *run) (proc.Launcher, error) {
	if r.sandbox != "" {
		return r.launch, nil
	}
	launch, how, err := w.jail().Launcher(r.t, r.wt.Path, r.wt.GitDir(), w.s.Config.Agent.For(r.t))
	if err != nil {
		return nil, err
	}
	r.launch, r.sandbox = launch, how
	return launch, nil
}
