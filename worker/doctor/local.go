package doctor

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/landing"
	"github.com/gofrs/flock"
)

// strayAge is how old a lock or temp file must be before doctor calls it
// stray: a live bh process holds either for milliseconds.
const strayAge = time.Minute

// checkStore reads every task: unreadable files (never rewritten by bh)
// and dependency cycles. The config was read strictly when the store
// opened: a bad one never gets this far.
func (d *doctor) checkStore() error {
	if err := d.checkKept(); err != nil { // first: what it restores is then read
		return err
	}
	errs, err := d.load()
	if err != nil {
		return err
	}
	for _, e := range errs {
		f := Finding{Check: "store", Status: Error, Message: e.Error(),
			Fix: "fix the file with bh edit, or by hand: bh never rewrites a file it cannot read"}
		var fe *task.FileError
		if errors.As(e, &fe) {
			f.Subject = fe.Path
			d.broken[strings.TrimSuffix(filepath.Base(fe.Path), ".yaml")] = true
			if fe.Tip != "" {
				f.Fix = fe.Tip
			}
		}
		d.found(f, nil)
	}
	cycles := task.Cycles(d.list)
	for _, c := range cycles {
		d.found(Finding{Check: "store", Status: Warn, Subject: c[0],
			Message: task.CycleText(c) + ": none of these tasks will ever be ready",
			Fix:     "drop one of the dependencies with bh edit " + c[0]}, nil)
	}
	if len(errs) == 0 && len(cycles) == 0 {
		d.ok("store", fmt.Sprintf("%d tasks readable, no dependency cycle, .bh/config.yaml valid", len(d.list)))
	}
	return nil
}

// load reads the tasks (again, after a repair changed some) and returns
// the files it could not read.
func (d *doctor) load() ([]error, error) {
	tasks, errs, err := d.s.List()
	if err != nil {
		return nil, err
	}
	d.list, d.tasks = tasks, make(map[string]*task.Task, len(tasks))
	for _, t := range tasks {
		d.tasks[t.ID] = t
	}
	return errs, nil
}

// checkLeases finds tasks in progress under a worker that is gone, and
// runs that leave leftovers; the fix is the worker's own recovery.
func (d *doctor) checkLeases() error {
	var recovered bool
	recoverOnce := func() error {
		if recovered {
			return nil
		}
		recovered = true
		return d.Recover()
	}
	found := d.deadLeases(recoverOnce)
	left, err := d.leftovers(recoverOnce)
	if err != nil {
		return err
	}
	if !found && !left {
		d.ok("leases", "no task held by a dead worker")
	}
	if recovered {
		_, err = d.load()
	}
	return err
}

// deadLeases names the tasks claimed by hand, and those in progress
// under a dead worker, which recover repairs.
func (d *doctor) deadLeases(recover func() error) (found bool) {
	for _, t := range d.list {
		if t.State != task.InProgress || t.Lease == nil {
			continue
		}
		l := *t.Lease
		switch {
		case l.Worker == claims.HandWorker || l.PID == 0:
			d.found(Finding{Check: "leases", Status: OK, Subject: t.ID,
				Message: fmt.Sprintf("claimed by hand on %s since %s", l.Host, l.StartedAt.Format(time.RFC3339)),
				Fix:     "bh never takes a hand claim back: bh reopen " + t.ID + " if nobody works on it"}, nil)
		case d.Dead(t):
			found = true
			why := fmt.Sprintf("no heartbeat since %s", l.Heartbeat.Format(time.RFC3339))
			if l.Host == claims.Hostname() {
				why = "its process is gone"
			}
			d.guarded(Finding{Check: "leases", Status: Error, Subject: t.ID,
				Message: fmt.Sprintf("in progress under %s pid %d on %s, which is dead: %s", l.Worker, l.PID, l.Host, why),
				Fix:     "recover it as bh worker does at start: its journaled ending is carried out, or its work parked and the task reopened"},
				recover)
		}
	}
	return found
}

// leftovers names the tasks no longer in progress whose last run left
// its journal: recover finishes that run's cleanup.
func (d *doctor) leftovers(recover func() error) (found bool, err error) {
	ids, err := d.Journaled()
	if err != nil {
		return false, err
	}
	for _, id := range ids {
		if t := d.tasks[id]; t != nil && t.State != task.InProgress {
			found = true
			d.guarded(Finding{Check: "leases", Status: Warn, Subject: id,
				Message: fmt.Sprintf("its last run left leftovers (.git/bh/runs/%s/journal.json), and it is %s now", id, t.State),
				Fix:     "finish that run's cleanup as bh worker does at start"}, recover)
		}
	}
	return found, nil
}

// checkLocks finds lock files of tasks that exist nowhere and temp files
// of writes a killed process cut short. A lock file nobody holds is no
// problem in itself (flock locks go with their process): only clutter.
func (d *doctor) checkLocks() error {
	if h := d.busy; h != nil && h.PID == 0 {
		d.found(Finding{Check: "locks", Status: Warn, Subject: d.rel(d.s.Local("worker.lock")),
			Message: "a worker runs here, but the file that names it is gone (removed by hand?): it still holds the worker lock, and a second worker is still refused",
			Fix:     "nothing is lost: stop that worker when you wish (Ctrl-C in its terminal), and its next start writes the file again"}, nil)
	} else if h != nil {
		d.ok("locks", fmt.Sprintf("a worker runs here: pid %d on %s, since %s", h.PID, h.Host, h.Since.Format(time.RFC3339)))
	}
	paths, err := filepath.Glob(d.s.Local("locks", "*.lock"))
	if err != nil {
		return err
	}
	found := false
	for _, p := range paths {
		id := strings.TrimSuffix(filepath.Base(p), ".lock")
		fi, err := os.Lstat(p)
		if filepath.Base(p) == landing.LockFile || err != nil || !fi.Mode().IsRegular() || time.Since(fi.ModTime()) < strayAge || !d.missing(id) {
			continue
		}
		found = true
		d.found(Finding{Check: "locks", Status: Warn, Subject: d.rel(p),
			Message: "lock file of a task that no longer exists", Fix: "remove it (unless someone holds it)"},
			func() error { return removeUnheld(p) })
	}
	byDir := map[string][]string{} // .bh/tmp, the list cache's folder
	var dirs []string
	for _, p := range d.s.StaleTemp(strayAge) {
		dir := d.rel(filepath.Dir(p))
		if byDir[dir] == nil {
			dirs = append(dirs, dir)
		}
		byDir[dir] = append(byDir[dir], p)
	}
	for _, dir := range dirs {
		found = true
		tmp := byDir[dir]
		d.found(Finding{Check: "locks", Status: Warn, Subject: dir,
			Message: fmt.Sprintf("%d temp file(s) left by writes a killed bh process cut short", len(tmp)),
			Fix:     "remove them"}, func() error { return removeAll(tmp) })
	}
	if !found {
		d.ok("locks", "no stray lock or temp file")
	}
	return nil
}

func removeAll(paths []string) error {
	var errs []error
	for _, p := range paths {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// removeUnheld removes a lock file while holding it: nobody can be
// inside it meanwhile.
func removeUnheld(path string) error {
	l := flock.New(path)
	ok, err := l.TryLock()
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("someone holds it")
	}
	defer l.Unlock()
	return os.Remove(path)
}

// checkRunning reports a task a live worker of this machine runs whose
// worktree is gone (git worktree remove --force on bh's worktrees): the
// run cannot end well there, and the task would stay in progress for good.
// The worker, stopped and started again, recovers it: its process gone,
// the task is reopened and runs anew.
func (d *doctor) checkRunning() error {
	list, err := d.repo.LinkedWorktrees()
	if err != nil {
		return err
	}
	has := map[string]bool{}
	for _, e := range list {
		if !e.Prunable {
			has[filepath.Base(e.Path)], has[e.Holder] = true, true
		}
	}
	found := false
	for _, t := range d.list {
		if t.State != task.InProgress || t.Lease == nil || has[t.ID] {
			continue
		}
		l := *t.Lease
		if l.Worker == claims.HandWorker || l.PID == 0 || l.Host != claims.Hostname() || d.Dead(t) {
			continue
		}
		found = true
		d.found(Finding{Check: "running", Status: Error, Subject: t.ID,
			Message: fmt.Sprintf("in progress under the worker pid %d, but its worktree is gone (git worktree remove --force?)", l.PID),
			Fix:     fmt.Sprintf("stop that worker (Ctrl-C twice, or kill %d) and start it again: the task is reopened and runs anew", l.PID)}, nil)
	}
	if !found {
		d.ok("running", "every task a worker runs here has its worktree")
	}
	return nil
}
