package worker

import (
	"errors"

	"github.com/bh-tracker/bh/worker/jail"
)

// jail is what confines this worker's runs.
func (w *worker) jail() *jail.Jail {
	return &jail.Jail{Store: w.s, CommonDir: w.repo.CommonDir(), Worktrees: WorktreeDir(w.s, w.repo.CommonDir()),
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

// checkSandbox says whether the worker's runs are sandboxed, and why not.
func (d *doctor) checkSandbox() error {
	on, chosen, why, err := jail.Status(d.s.Config)
	var se *jail.SandboxError
	switch {
	case on:
		d.ok("sandbox", why)
	case chosen:
		d.ok("sandbox", "agents run unsandboxed, as "+why+" says")
	case errors.As(err, &se):
		d.found(Finding{Check: "sandbox", Status: DoctorError, Message: err.Error(), Fix: se.Hint()}, nil)
	case err != nil:
		d.found(Finding{Check: "sandbox", Status: DoctorError, Message: err.Error(), Fix: "fix " + jail.Env}, nil)
	default:
		d.found(Finding{Check: "sandbox", Status: DoctorWarn, Message: "agents run unsandboxed: " + why,
			Fix: "install bubblewrap (apt install bubblewrap) on Linux, or set sandbox: off in .bh/config.yaml"}, nil)
	}
	return nil
}
