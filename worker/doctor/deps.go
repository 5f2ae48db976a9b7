package doctor

import (
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task"
)

// checkDeps finds the tasks that depend on a task that does not exist
// (here, readable or not, nor on the remote's branch): such a task is
// never ready, and nothing else says why. A human decides what the
// dependency was meant to be, so there is no fix. It runs at the end of
// connect.
func (d *doctor) checkDeps() {
	found := false
	for _, t := range d.list {
		if t.State == task.Closed {
			continue
		}
		var gone []string
		for _, dep := range t.DependsOn {
			if d.missing(dep) {
				gone = append(gone, dep)
			}
		}
		if len(gone) == 0 {
			continue
		}
		found = true
		d.found(Finding{Check: "deps", Status: Warn, Subject: t.ID,
			Message: fmt.Sprintf("depends on %s, which does not exist: it is never ready", strings.Join(gone, ", ")),
			Fix:     "drop the dependency (bh edit " + t.ID + "), or add the task it meant"}, nil)
	}
	if !found {
		d.ok("deps", "every dependency exists")
	}
}
