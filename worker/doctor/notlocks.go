package doctor

import (
	"os"
	"path/filepath"
)

// checkNotLocks finds what is not a lock file where bh keeps its locks
// (.git/bh/locks/*, .git/bh/worker.lock): a folder there, which an agent could
// make while .git/bh/locks was writable in its sandbox, failed every later
// worker, bh update and bh sync with "is a directory". bh removes an
// empty one (or a link) itself when it takes the lock; a folder with
// files in it is left to the human, or to --fix. It runs before --fix
// takes the worker lock, which such a folder would block.
func (d *doctor) checkNotLocks() {
	paths, _ := filepath.Glob(d.s.Local("locks", "*"))
	paths = append(paths, d.s.Local("worker.lock"))
	for _, p := range paths {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode().IsRegular() || filepath.Base(p) == ".gitignore" {
			continue
		}
		f := Finding{Check: "locks", Status: Warn, Subject: d.rel(p),
			Message: "not a lock file (" + fi.Mode().Type().String() + "): bh removes it when it takes the lock",
			Fix:     "remove it"}
		if ents, _ := os.ReadDir(p); fi.IsDir() && len(ents) > 0 {
			f.Status = Error
			f.Message = "a folder with files in it where bh keeps a lock file: every worker, bh update and bh sync that needs the lock stops"
		}
		d.found(f, func() error { return os.RemoveAll(p) })
	}
}
