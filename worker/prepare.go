package worker

import (
	"fmt"
	"os"

	"github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/journal"
	"github.com/bh-tracker/bh/worker/landing"
	"github.com/bh-tracker/bh/worker/slots"
)

// prepare readies r's worktree: it exists at the task's path on its
// branch (recreated, with the parked work restored, if it was removed), the
// configured files are copied in and the setup command has run. The
// journal is written before the worktree is touched. The worker's stop
// ends the setup command.
func (w *worker) prepare(r *run) error {
	id := r.t.ID
	target, snap, start, err := w.startOf(r.t)
	if err != nil {
		return err
	}
	// The base journaled before the worktree is touched is where a branch
	// made now starts: a kill before the worktree records it leaves it here.
	if old, _ := journal.Load(w.s, id); old != nil && old.PGID > 0 {
		w.killLeftover(old) // never two agents in one worktree
	}
	created, err := w.placeWorktree(r, target, snap, start)
	if err != nil {
		return err
	}
	if r.j.Base, err = r.wt.Base(landing.BaseOf(w.s, w.repo, r.t, target)); err != nil {
		return err
	}
	if r.wt.RecordedBase() == "" { // from here on, whatever a sync does to target
		if err := r.wt.SetBase(r.j.Base); err != nil {
			return err
		}
	}
	if err := journal.Save(w.s, r.j); err != nil {
		return err
	}
	if created {
		os.Remove(setupMark(w.s, id))
	}
	if _, err := w.launcher(r); err != nil {
		return &setupError{err}
	}
	return w.setup(r)
}

// startOf is where t's work starts: its target branch, and its parked
// snapshot and the commit it goes back on, if any (parkedStart).
func (w *worker) startOf(t *task.Task) (target, snap, start string, err error) {
	if target, err = w.target(t); err != nil {
		return "", "", "", err
	}
	tip, err := w.repo.BranchTip(target)
	if err != nil {
		return "", "", "", err
	}
	if tip == "" {
		return "", "", "", fmt.Errorf("the target branch %s has no commit yet: commit something first", target)
	}
	if err := landing.FetchBranch(w.s, w.repo, t, slots.Branch(t.ID)); err != nil {
		return "", "", "", err
	}
	snap, start, err = w.parkedStart(t.ID, tip)
	return target, snap, start, err
}

// placeWorktree journals r's run and puts its worktree in place (a pool
// slot or a worktree of its own): until the slot holds the task's branch,
// the questions about the slots share one listing of the worktrees.
func (w *worker) placeWorktree(r *run, target, snap, start string) (created bool, err error) {
	id := r.t.ID
	w.pool.Lock()
	shared := w.repo.ShareListing()
	defer func() { shared(); w.pool.Unlock() }()
	path, pooled, err := slots.For(w.s, w.repo, id)
	if err != nil {
		return false, err
	}
	r.j = &journal.Journal{Task: id, Lease: *r.t.Lease, Worktree: path, Branch: slots.Branch(id), Target: target, Base: start}
	if err := journal.Save(w.s, r.j); err != nil {
		return false, err
	}
	r.wt, created, r.restored, err = w.ensureWorktree(id, path, pooled, snap, start)
	return created, err
}

// ensureWorktree makes task id's worktree exist at path (a pool slot when
// pooled), on its branch (started at start when new). Parked work that outlived its worktree goes
// back on the commit it was made on (landing rebases it later if the
// target moved): restored is that snapshot, when it was put back.
func (w *worker) ensureWorktree(id, path string, pooled bool, snap, start string) (wt *git.Worktree, created bool, restored string, err error) {
	had, err := w.repo.BranchTip(slots.Branch(id))
	if err != nil {
		return nil, false, "", err
	}
	if pooled {
		wt, created, err = slots.Reset(w.s, w.repo, id, path, start)
	} else {
		wt, created, err = w.repo.EnsureWorktree(path, slots.Branch(id), start, w.s.Root)
	}
	if err != nil {
		return nil, false, "", err
	}
	if restored, err = w.fillWorktree(wt, snap, created && had == "", start); err != nil {
		return nil, false, "", err
	}
	return wt, created, restored, nil
}

// fillWorktree finishes a worktree that has no base recorded yet (see
// git.Worktree.Base): made now, or cut short by a kill while being made
// or restored. Parked work goes back into it (its base, the snapshot's
// parent, recorded last, so that a kill before leaves it to do again); a
// branch made now at start has start. restored is the snapshot put back.
func (w *worker) fillWorktree(wt *git.Worktree, snap string, fresh bool, start string) (restored string, err error) {
	if wt.RecordedBase() != "" {
		return "", nil // made before: its files are the work
	}
	if snap != "" {
		return snap, wt.Restore(snap)
	}
	if fresh {
		return "", wt.SetBase(start)
	}
	return "", nil
}

// parkedStart is task id's parked snapshot, if any, and the commit a
// worktree made for it starts on: the snapshot's parent, else tip.
func (w *worker) parkedStart(id, tip string) (snap, start string, err error) {
	if snap, err = w.repo.Ref(git.ParkRef(id)); err != nil || snap == "" {
		return "", tip, err
	}
	start, err = w.repo.Parent(snap)
	return snap, start, err
}

// target is the branch t's work lands on: the task's or config's, else
// the branch checked out in the main tree.
func (w *worker) target(t *task.Task) (string, error) {
	target, _ := config.Delivery(t, w.s.Config)
	if target == "" {
		target = w.home.Of(w.repo, w.warnf) // the branch the worker started on
	}
	if target != "" {
		return target, nil
	}
	b, err := w.repo.CurrentBranch()
	if err != nil {
		return "", err
	}
	if b == "" {
		return "", errNoTarget
	}
	return b, nil
}

// killLeftover stops an agent a dead worker left running in its worktree.
func (w *worker) killLeftover(j *journal.Journal) {
	if j.PGID > 0 {
		if err := proc.KillGroup(j.PGID, j.Worktree); err != nil {
			w.warnf("%s: stop the agent left running: %v", j.Task, err)
		}
	}
}
