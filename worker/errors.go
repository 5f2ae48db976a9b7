package worker

import "errors"

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

// setupError is a worktree whose setup failed: the task's trouble (a
// missing file, a broken install step), not the agent's.
type setupError struct{ err error }

func (e *setupError) Error() string { return "worktree setup: " + e.err.Error() }

func (e *setupError) Unwrap() error { return e.err }

// errNotOurs: the task is no longer this worker's (a human or another worker took it).
var errNotOurs = errors.New("lease taken over")
