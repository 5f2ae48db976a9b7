package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/jail"
)

// preflighter is a runner that can check its agent before any run.
type preflighter interface {
	Preflight(ctx context.Context) (string, error)
}

// preflight checks what every run needs: the config (see checkConfig),
// and the agents (their binary and version; a release outside the tested
// range is a warning, a known-broken one an error).
func (w *worker) preflight(ctx context.Context) error {
	if err := w.checkConfig(); err != nil {
		return err
	}
	if err := w.checkSandbox(); err != nil {
		return err
	}
	runners, err := w.agentsInUse()
	if err != nil {
		return err
	}
	for _, r := range runners {
		if p, ok := r.(preflighter); ok {
			version, err := p.Preflight(ctx)
			if err != nil {
				return &PreflightError{Err: err}
			}
			if cfg, ok := agentProgram(r); ok {
				if err := w.startsInSandbox(ctx, cfg); err != nil {
					return err
				}
			}
			if t, ok := r.(interface{ Tested() agent.Tested }); ok {
				if warn := t.Tested().Warning(version); warn != "" {
					w.warnf("%s", warn)
				}
			}
		}
	}
	return nil
}

// checkConfig is everything the worker refuses to start on that needs no
// agent to run: the agents the config and tasks set up, the notify: list,
// git's identity for the commits, and a target branch. bh doctor runs it
// too, so that the two never disagree.
func (w *worker) checkConfig() error {
	if w.opt.Runner == nil {
		if _, err := NewRunner(w.s.Config.Agent, nil); err != nil {
			return err
		}
	}
	if _, err := w.agentsInUse(); err != nil {
		return err
	}
	if !w.repo.HasIdentity() {
		return &PreflightError{Err: errors.New("git does not know who you are: bh commits finished work in your name"),
			Advice: `run git config user.name "Your Name" and git config user.email you@example.com`}
	}
	if w.s.Config.Target == "" {
		b, err := w.repo.CurrentBranch()
		if err != nil {
			return err
		}
		if b == "" {
			return &PreflightError{Err: errNoTarget}
		}
		w.home.Branch = b
	}
	return w.checkGH()
}

// agentsInUse are the runners the worker will need, once each: those the
// open tasks and the config's agent.types ask for, and the config's own
// agent when it is named (kind or binary), an open task runs on it, or no
// task is open yet (the next plain one will). So a worker whose tasks all
// use codex starts without claude installed.
func (w *worker) agentsInUse() ([]agent.Runner, error) {
	if w.opt.Runner != nil {
		return []agent.Runner{w.runner}, nil
	}
	tasks, _, err := w.s.ListBrief()
	if err != nil {
		return nil, err
	}
	tasks = slices.DeleteFunc(tasks, func(t *task.Task) bool { return t.State == task.Closed })
	main := w.s.Config.Agent
	needMain := main.Kind != "" || main.Binary != "" || len(tasks) == 0
	for typ := range main.Types {
		tasks = append(tasks, &task.Task{Type: task.Type(typ), State: task.Open})
	}
	var runners []agent.Runner
	seen := map[string]bool{agentKey(main): true}
	for _, t := range tasks {
		cfg := main.For(t)
		key := agentKey(cfg)
		if key == agentKey(main) {
			needMain = true
		}
		if !seen[key] {
			seen[key] = true
			r, err := NewRunner(cfg, nil)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", t.ID, err)
			}
			runners = append(runners, r)
		}
	}
	if needMain {
		runners = append([]agent.Runner{w.runner}, runners...)
	}
	return runners, nil
}

// agentKey tells agents apart for preflight: the same CLI at the same path
// is checked once.
func agentKey(cfg config.AgentConfig) string { return cfg.Name() + " " + cfg.Binary }

// checkGH refuses to start without gh when pull requests are to be
// opened or shepherded (land: pr in the config or on a task not closed).
func (w *worker) checkGH() error {
	need := w.s.Config.Land == task.LandPR
	if !need {
		tasks, _, err := w.s.ListBrief()
		if err != nil {
			return err
		}
		need = slices.ContainsFunc(tasks, func(t *task.Task) bool { return t.Land == task.LandPR && t.State != task.Closed })
	}
	if _, err := exec.LookPath(cmp.Or(w.opt.GH, "gh")); need && err != nil {
		return &PreflightError{Err: fmt.Errorf("land: pr needs the GitHub CLI: %w", err),
			Advice: "install gh (https://cli.github.com, or apt-get install gh) and run gh auth login"}
	}
	return nil
}

// checkSandbox is the preflight's word on the sandbox: a refusal where
// it is required and cannot run, a warning where runs go unsandboxed.
func (w *worker) checkSandbox() error {
	on, chosen, why, err := jail.Status(w.s.Config)
	var se *jail.SandboxError
	switch {
	case errors.As(err, &se):
		return &PreflightError{Err: err, Advice: se.Hint()}
	case err != nil:
		return &PreflightError{Err: err}
	case !on && !chosen:
		w.warnf("agents run unsandboxed: %s", why)
	}
	return nil
}
