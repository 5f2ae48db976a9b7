package doctor

import (
	"errors"
	"fmt"

	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/storegit"
)

// checkKept compares the tree with bh's copies of the store's files
// (the keep ref): with --fix, bh's copy of each file the tree lost goes
// back, and what it read is recorded.
func (d *doctor) checkKept() error {
	kp := storegit.NewKeeper(d.s, func(error) {})
	lost, err := kp.Compare(d.fix) // without --fix, doctor changes nothing
	if errors.Is(err, storegit.ErrNoKeep) {
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
		if id, ok := l.TaskID(); ok {
			f.Fix += " (or forget it: bh rm " + id + ")"
		}
		d.found(f, func() error { return kp.Restore([]storegit.Lost{l}) })
	}
	if len(lost) == 0 && d.fix {
		kp.SaveStamp()
	}
	if len(lost) == 0 {
		d.ok("kept", "every task file and config.yaml bh wrote is here as bh wrote it")
	}
	return nil
}

// checkOwnFiles reports bh's own .gitignore and .gitattributes gone from
// .bh/ (a git rebase -i that dropped bh's commits): git add -A would then
// commit bh's temp files, and task files would merge line by line.
func (d *doctor) checkOwnFiles() error {
	gone := d.s.MissingOwnFiles()
	for _, name := range gone {
		d.found(Finding{Check: "ignore", Status: Warn, Subject: ".bh/" + name,
			Message: "bh's own file is gone (a git rebase -i that dropped bh's commits?)",
			Fix:     "write it back as bh init did (then commit it)"},
			func() error { return d.s.RestoreOwnFile(name) })
	}
	if len(gone) == 0 {
		d.ok("ignore", "bh's .gitignore and .gitattributes are in .bh/")
	}
	return nil
}
