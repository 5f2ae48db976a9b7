package doctor

import (
	"errors"

	"github.com/bh-tracker/bh/worker/jail"
)

// hinter is an error that says what to do about it.
type hinter interface{ Hint() string }

// checkConfig runs the worker's own checks of the config and the
// repository (everything but the agent CLIs): what would make bh worker
// refuse to start is named here, in the same words.
func (d *doctor) checkConfig() error {
	hint, err := d.CheckConfig()
	if err == nil {
		d.ok("config", "bh worker accepts the config and the repository")
		return nil
	}
	f := Finding{Check: "config", Status: Error, Message: err.Error(),
		Fix: "fix it: bh worker refuses to start until then"}
	if hint != "" {
		f.Fix = hint
	}
	d.found(f, nil)
	return nil
}

// checkSandbox says whether the worker's runs are sandboxed, and why not.
func (d *doctor) checkSandbox() error {
	on, chosen, why, err := jail.Status(d.s.Config)
	var h *jail.SandboxError
	switch {
	case on:
		d.ok("sandbox", why)
	case chosen:
		d.ok("sandbox", "agents run unsandboxed, as "+why+" says")
	case errors.As(err, &h):
		d.found(Finding{Check: "sandbox", Status: Error, Message: err.Error(), Fix: h.Hint()}, nil)
	case err != nil:
		d.found(Finding{Check: "sandbox", Status: Error, Message: err.Error(), Fix: "fix " + jail.Env}, nil)
	default:
		d.found(Finding{Check: "sandbox", Status: Warn, Message: "agents run unsandboxed: " + why,
			Fix: "install bubblewrap (apt install bubblewrap) on Linux, or set sandbox: off in .bh/config.yaml"}, nil)
	}
	return nil
}

// checkAgentStarts is bh doctor's word on the agents in use: each starts in
// the sandbox. An agent that is not installed is the worker's preflight's
// to name.
func (d *doctor) checkAgentStarts() error {
	return d.AgentStarts(func(binary string, refused error) {
		var h hinter
		switch {
		case refused == nil:
			d.ok("agent", binary+" starts in the sandbox")
		case errors.As(refused, &h):
			d.found(Finding{Check: "agent", Status: Error, Message: refused.Error(), Fix: h.Hint()}, nil)
		default:
			d.found(Finding{Check: "agent", Status: Error, Message: refused.Error()}, nil)
		}
	})
}
