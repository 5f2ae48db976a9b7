package worker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git"
)

// prepare readies r's worktree: it exists at the task's path on its
// branch (recreated, with the parked work restored, if it was removed), the
// configured files are copied in and the setup command has run. The
// journal is written before the worktree is touched. Cancelling kill stops
// the setup command.
func (w *worker) prepare(kill context.Context, r *run) error {
	id := r.t.ID
	target, err := w.target(r.t)
	if err != nil {
		return err
	}
	tip, err := w.repo.BranchTip(target)
	if err != nil {
		return err
	}
	if tip == "" {
		return fmt.Errorf("the target branch %s has no commit yet: commit something first", target)
	}
	r.j = &journal{Task: id, Lease: *r.t.Lease, Worktree: WorktreePath(w.s, w.repo, id), Branch: Branch(id),
		Target: target}
	if old, _ := loadJournal(w.s, id); old != nil && old.PGID > 0 {
		w.killLeftover(old) // never two agents in one worktree
	}
	if err := saveJournal(w.s, r.j); err != nil {
		return err
	}
	wt, created, snap, err := w.ensureWorktree(id, r.j.Worktree, tip)
	if err != nil {
		return err
	}
	r.wt, r.restored = wt, snap
	if r.j.Base, err = wt.Base(target); err != nil {
		return err
	}
	if err := saveJournal(w.s, r.j); err != nil {
		return err
	}
	if created {
		os.Remove(setupMark(w.s, id))
	}
	return w.setup(kill, r)
}

// ensureWorktree makes task id's worktree exist at path, on its branch
// (started at tip when new). Parked work that outlived its worktree goes
// back on the commit it was made on (landing rebases it later if the
// target moved): restored is that snapshot, when it was put back.
func (w *worker) ensureWorktree(id, path, tip string) (wt *git.Worktree, created bool, restored string, err error) {
	snap, err := w.repo.Ref(ParkRef(id))
	if err != nil {
		return nil, false, "", err
	}
	start := tip
	if snap != "" {
		if start, err = w.repo.Parent(snap); err != nil {
			return nil, false, "", err
		}
	}
	if wt, created, err = w.repo.EnsureWorktree(path, Branch(id), start, w.s.Root); err != nil {
		return nil, false, "", err
	}
	if created && snap != "" {
		if err := wt.Restore(snap); err != nil {
			return nil, false, "", err
		}
		restored = snap
	}
	return wt, created, restored, nil
}

// target is the branch t's work lands on: the task's or config's, else
// the branch checked out in the main tree.
func (w *worker) target(t *task.Task) (string, error) {
	target, _ := t.Delivery(w.s.Config)
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

func setupMark(s *task.Store, id string) string { return filepath.Join(runsDir(s, id), "setup.done") }
