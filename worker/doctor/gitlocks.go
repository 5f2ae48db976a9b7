package doctor

import (
	"fmt"
	"os"

	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/usertree"
	"github.com/bh-tracker/bh/worker/landing"
)

// checkGitLocks names git's own lock files older than git.StaleAge. A
// stale one (no git process runs in the repository) fails every git step
// that needs it, the worker's landings among them, and --fix removes it;
// one a live git process may hold is left to a human.
func (d *doctor) checkGitLocks() error {
	d.checkHeldIndex()
	locks, err := usertree.Of(d.repo).StaleLocks()
	if err != nil {
		return err
	}
	for _, l := range locks {
		age := git.Age(l.Age)
		f := Finding{Check: "locks", Status: Warn, Subject: d.rel(l.Path)}
		if !l.Stale {
			f.Message = fmt.Sprintf("git lock %s old, and a git process runs in the repository: it may hold it", age)
			f.Fix = "if no git command of yours still runs, remove it by hand"
			d.found(f, nil)
			continue
		}
		f.Status = Error
		f.Message = fmt.Sprintf("stale git lock: %s old, and no git process runs in the repository; git steps that need it fail", age)
		f.Fix = "remove it"
		d.found(f, func() error {
			// A landing killed while it held the index: finished or undone
			// (the user's files back as they were), its lock with it.
			if err := usertree.Of(d.repo).Recover(); err != nil {
				return err
			}
			if _, err := os.Lstat(l.Path); err != nil {
				return nil
			}
			return usertree.Of(d.repo).RemoveStaleLock(l.Path)
		})
	}
	if len(locks) == 0 {
		d.ok("locks", fmt.Sprintf("no git lock older than %s", git.StaleAge))
	}
	return nil
}

// checkHeldIndex finds a landing or store commit of bh's killed while it
// held the tree's index (usertree.Recover): its index.lock is bh's,
// whatever other git runs meanwhile, and --fix ends it under the landing
// lock, so never a live one's.
func (d *doctor) checkHeldIndex() {
	if !usertree.Of(d.repo).HeldIndex() {
		return
	}
	d.guarded(Finding{Check: "locks", Status: Error, Subject: "index",
		Message: "a landing or store commit of bh's holds your index (killed, unless one runs now): git steps that need it fail",
		Fix:     "finish it, or undo it (your files as they were)"}, func() error {
		unlock, err := landing.Lock(d.s)
		if err != nil {
			return err
		}
		defer unlock()
		return usertree.Of(d.repo).Recover()
	})
}
