package doctor

import (
	"fmt"

	"github.com/bh-tracker/bh/worker/git"
)

// checkKept compares the tree with bh's copies of the store's files
// (see Worker.Kept): with --fix, bh's copy of each file the tree lost
// goes back.
func (d *doctor) checkKept() error {
	lost, ok, err := d.Kept(d.fix) // without --fix, doctor changes nothing
	if !ok {
		return nil // no repository to keep in: connect says so
	}
	if err != nil {
		d.found(Finding{Check: "kept", Status: Warn, Message: fmt.Sprintf("compare with bh's copies (%s): %v", git.KeepRef, err)}, nil)
		return nil
	}
	for _, l := range lost {
		f := Finding{Check: "kept", Status: Error, Subject: ".bh/" + l.Rel,
			Message: "gone since bh wrote it (git clean, git stash -u, git checkout or git reset --hard?)",
			Fix:     "restore bh's copy"}
		if !l.Missing {
			f.Message = "older than bh last wrote it (git stash, git checkout or git reset --hard?)"
		}
		if l.Task != "" {
			f.Fix += " (or forget it: bh rm " + l.Task + ")"
		}
		d.found(f, l.Restore)
	}
	if len(lost) == 0 {
		d.ok("kept", "every task file and config.yaml bh wrote is here as bh wrote it")
	}
	return nil
}
