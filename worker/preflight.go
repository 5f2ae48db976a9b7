package worker

import (
	"context"

	"errors"
)

// PreflightError is a worker that cannot work here at all: no agent
// binary, no git identity, no branch to land on. It is reported once,
// before any task is claimed, rather than failing every ready task.
type PreflightError struct {
	Err    error
	Advice string
}

func (e *PreflightError) Error() string { return e.Err.Error() }
func (e *PreflightError) Hint() string  { return e.Advice }
func (e *PreflightError) Unwrap() error { return e.Err }

// preflighter is a runner that can check its agent before any run.
type preflighter interface {
	Preflight(ctx context.Context) (string, error)
}

// preflight checks what every run needs: the agent (its binary and
// version), git's identity for the commits, and a target branch.
func (w *worker) preflight(ctx context.Context) error {
	if p, ok := w.runner.(preflighter); ok {
		if _, err := p.Preflight(ctx); err != nil {
			return &PreflightError{Err: err}
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
