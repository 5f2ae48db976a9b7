package worker

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/journal"
)

// keep snapshots the worktree under the task's park ref and leaves it as
// it is: nothing committed, nothing discarded.
func (w *worker) keep(r *run, e *ending.Ending) error {
	if r.wt == nil {
		return nil // gone already: the park ref, if any, holds the work
	}
	// Mid-rebase, the files stand on the commits the rebase replayed so
	// far, not on the base: measured from the base, every commit of the
	// target's since would be parked (and later committed) as the task's.
	base, err := r.wt.RebaseHead()
	if err != nil {
		return fmt.Errorf("park: %w", err)
	}
	commit, paths, err := r.wt.Snapshot(cmp.Or(base, r.j.Base), fmt.Sprintf("bh: %s %s\n\nbh-task: %s\n", r.t.ID, e.Outcome, r.t.ID))
	if err != nil {
		return fmt.Errorf("park: %w", err)
	}
	if commit == "" {
		e.Emptied = true
		return w.repo.DeleteRef(git.ParkRef(r.t.ID)) // nothing to keep; no stale snapshot either
	}
	if err := w.repo.SetRef(git.ParkRef(r.t.ID), commit, "bh park"); err != nil {
		return fmt.Errorf("park: %w", err)
	}
	e.Commit, e.Paths = commit, paths
	return nil
}

// discard throws the worktree's changes away with the worktree itself.
// Nothing outside it is touched.
func (w *worker) discard(r *run, e *ending.Ending) error {
	if r.wt != nil {
		paths, err := r.wt.Changed(r.j.Base)
		if err != nil {
			return fmt.Errorf("discard: %w", err)
		}
		e.Paths = paths
		r.j.Ending = e // a retried discard still names what went
		if err := journal.Save(w.s, r.j); err != nil {
			return err
		}
	}
	if err := w.pool.Drop(w.s, w.repo, r.t.ID, r.j.Worktree, r.j.Branch); err != nil {
		return fmt.Errorf("discard: %w", err)
	}
	r.wt = nil
	return w.repo.DeleteRef(git.ParkRef(r.t.ID))
}

// cleanup removes what a finished run leaves behind. Worktrees and
// branches go only once their work has landed (or was discarded).
func (w *worker) cleanup(r *run, e ending.Ending) {
	if e.Fate == ending.LandWork {
		branch := r.j.Branch
		if _, land := config.Delivery(r.t, w.s.Config); land == task.LandBranch || e.Outcome != ending.Completed {
			branch = "" // the branch holds the work
		}
		if err := w.pool.Drop(w.s, w.repo, r.t.ID, r.j.Worktree, branch); err != nil {
			w.warnf("%s: remove worktree: %v", r.t.ID, err)
		}
		if err := w.repo.DeleteRef(git.ParkRef(r.t.ID)); err != nil {
			w.warnf("%s: %v", r.t.ID, err)
		}
		if err := w.jail().DropTaskState(r.t.ID); err != nil {
			w.warnf("%s: %v", r.t.ID, err)
		}
	}
	journal.Remove(w.s, r.t.ID)
}

// diffStat is the --stat of the work in r's worktree, for an approval.
func (w *worker) diffStat(r *run) string {
	if r.wt == nil {
		return ""
	}
	snap, _, err := r.wt.Snapshot(r.j.Base, "bh: stat\n")
	if err != nil || snap == "" {
		return ""
	}
	stat, err := w.repo.Diff(r.j.Base, snap, true)
	if err != nil {
		return ""
	}
	return stat
}

// errNoTarget is a run that cannot know where its work would land.
var errNoTarget = errors.New("HEAD is detached: name the branch to land on with target: in .bh/config.yaml (or the task), or check out a branch")
