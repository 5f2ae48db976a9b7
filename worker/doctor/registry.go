package doctor

import (
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task/config"
)

// checkRegistry finds repositories in the user's registry (what bh inbox
// and bh serve read) whose folder or .bh is gone: each would cost the
// inbox a warning on every run. --fix drops them from the registry. It is
// no problem of this repository's: a note, which leaves the exit code be.
func (d *doctor) checkRegistry() error {
	gone, err := config.Gone()
	switch {
	case err != nil:
		d.found(Finding{Check: "registry", Status: Warn, Message: err.Error(),
			Fix: "repair or remove " + config.RegistryPath()}, nil)
	case len(gone) == 0:
		d.ok("registry", "every registered repository is there")
	default:
		d.found(Finding{Check: "registry", Status: OK, Subject: config.RegistryPath(),
			Message: fmt.Sprintf("%d registered repositories are gone: %s", len(gone), strings.Join(gone, ", ")),
			Fix:     "bh doctor --fix drops them from the registry"}, func() error { return config.Unregister(gone) })
	}
	return nil
}
