package worker

import (
	"errors"

	"github.com/bh-tracker/bh/worker/jail"
	"github.com/bh-tracker/bh/worker/slots"
)

// jail is what confines this worker's runs.
func (w *worker) jail() *jail.Jail {
	return &jail.Jail{Store: w.s, CommonDir: w.repo.CommonDir(), Worktrees: slots.WorktreeDir(w.s, w.repo.CommonDir()),
		Env: w.opt.Env, MCP: w.mcp(), OwnState: w.opt.Runner != nil, Warnf: w.warnf}
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
