package worker

import "errors"

// checkConfig runs the worker's own checks of the config and the
// repository (everything but the agent CLIs): what would make bh worker
// refuse to start is named here, in the same words.
func (d *doctor) checkConfig() error {
	err := d.worker.checkConfig()
	if err == nil {
		d.ok("config", "bh worker accepts the config and the repository")
		return nil
	}
	f := Finding{Check: "config", Status: DoctorError, Message: err.Error(),
		Fix: "fix it: bh worker refuses to start until then"}
	var pe *PreflightError
	if errors.As(err, &pe) && pe.Hint() != "" {
		f.Fix = pe.Hint()
	}
	d.found(f, nil)
	return nil
}
