package worker

import (
	"context"
	"errors"
	"fmt"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

// PreflightError is a worker that cannot work here at all: no agent
// binary, no git identity, no branch to land on. It is reported once,
// before any task is claimed, rather than failing every ready task.
type PreflightError struct {
	Err    error
	Advice string
}

func (e *PreflightError) Error() string { return e.Err.Error() }

// Hint is the advice, else the wrapped error's own (an agent's CheckError).
func (e *PreflightError) Hint() string {
	var h interface{ Hint() string }
	if e.Advice == "" && errors.As(e.Err, &h) {
		return h.Hint()
	}
	return e.Advice
}
func (e *PreflightError) Unwrap() error { return e.Err }

// preflighter is a runner that can check its agent before any run.
type preflighter interface {
	Preflight(ctx context.Context) (string, error)
}

// preflight checks what every run needs: the agent (its binary and
// version; a release outside the tested range is a warning, a known-broken
// one an error), git's identity for the commits, and a target branch.
func (w *worker) preflight(ctx context.Context) error {
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
			if t, ok := r.(interface{ Tested() agent.Tested }); ok {
				if warn := t.Tested().Warning(version); warn != "" {
					w.warnf("%s", warn)
				}
			}
		}
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
	}
	return nil
}

// agentsInUse are the runners the worker may need: the config's agent, and
// each other one a task type or an unfinished task asks for, once each.
func (w *worker) agentsInUse() ([]agent.Runner, error) {
	if w.opt.Runner != nil {
		return []agent.Runner{w.runner}, nil
	}
	tasks, _, err := w.s.ListBrief()
	if err != nil {
		return nil, err
	}
	for typ := range w.s.Config.Agent.Types {
		tasks = append(tasks, &task.Task{Type: task.Type(typ), State: task.Open})
	}
	runners := []agent.Runner{w.runner}
	seen := map[string]bool{agentName(w.s.Config.Agent) + " " + w.s.Config.Agent.Binary: true}
	for _, t := range tasks {
		if t.State == task.Closed {
			continue
		}
		cfg := w.s.Config.Agent.For(t)
		if key := agentName(cfg) + " " + cfg.Binary; !seen[key] {
			seen[key] = true
			r, err := NewRunner(cfg, nil)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", t.ID, err)
			}
			runners = append(runners, r)
		}
	}
	return runners, nil
}
