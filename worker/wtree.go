package worker

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/bh-tracker/bh/worker/jail"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
)

// ParkRef is where a task's partial work is snapshotted while the task
// waits, so that it survives the removal of its worktree (git.ParkRef).
func ParkRef(id string) string { return git.ParkRef(id) }

// Branch is the branch a task's agent works on.
func Branch(id string) string { return "bh/" + id }

// WorktreeDir is the folder holding the repository's task worktrees: the
// config's worktree.dir, else a folder of bh's state dir named after the
// repository. It lies outside the repository's git dir, whose files
// Claude Code refuses to edit, and outside the user's tree.
func WorktreeDir(s *store.Store, commonDir string) string {
	if d := s.Config.Worktree.Dir; d != "" {
		if !filepath.IsAbs(d) {
			d = filepath.Join(s.Root, d)
		}
		return d
	}
	state := jail.StateDir()
	if state == "" {
		return filepath.Join(commonDir, "bh", "worktrees")
	}
	return filepath.Join(state, "worktrees", jail.RepoKey(s, commonDir))
}

// WorktreePath is where task id's worktree lives: the pool slot it holds
// (see pool.go), else its own worktree; the same every time, since
// Claude Code files its sessions by working directory. A worktree of the
// task's branch registered elsewhere (made before HOME, XDG_STATE_HOME or
// worktree.dir changed) is used where it is: git would not check the
// branch out twice, and bh doctor --fix moves it (see movedWorktrees).
func WorktreePath(s *store.Store, r *git.Repo, id string) string {
	if list, err := r.LinkedWorktrees(); err == nil {
		if e := worktreeOf(list, id); e != nil {
			return e.Path
		}
	}
	return filepath.Join(WorktreeDir(s, r.CommonDir()), id)
}

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
		return w.repo.DeleteRef(ParkRef(r.t.ID)) // nothing to keep; no stale snapshot either
	}
	if err := w.repo.SetRef(ParkRef(r.t.ID), commit, "bh park"); err != nil {
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
		if err := saveJournal(w.s, r.j); err != nil {
			return err
		}
	}
	if err := w.dropWorktree(r.t.ID, r.j.Worktree, r.j.Branch); err != nil {
		return fmt.Errorf("discard: %w", err)
	}
	r.wt = nil
	return w.repo.DeleteRef(ParkRef(r.t.ID))
}

// cleanup removes what a finished run leaves behind. Worktrees and
// branches go only once their work has landed (or was discarded).
func (w *worker) cleanup(r *run, e ending.Ending) {
	if e.Fate == ending.LandWork {
		branch := r.j.Branch
		if _, land := config.Delivery(r.t, w.s.Config); land == task.LandBranch || e.Outcome != ending.Completed {
			branch = "" // the branch holds the work
		}
		if err := w.dropWorktree(r.t.ID, r.j.Worktree, branch); err != nil {
			w.warnf("%s: remove worktree: %v", r.t.ID, err)
		}
		if err := w.repo.DeleteRef(ParkRef(r.t.ID)); err != nil {
			w.warnf("%s: %v", r.t.ID, err)
		}
		w.dropTaskState(r.t.ID)
	}
	removeJournal(w.s, r.t.ID)
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

// repairHalfMade removes the worktree registrations bh left half made (an
// older bh sync's scratch worktrees, a task's worktree whose creation was
// killed), which make git fetch and gc fail in the whole repository; it
// returns what it removed. The worker does it at start, holding the worker
// lock (bh sync removes only its own: storegit's removeScratch); bh doctor
// --fix when asked.
func repairHalfMade(s *store.Store, r *git.Repo) ([]string, error) {
	admins, err := halfMade(s, r)
	var done []string
	for _, a := range admins {
		if err := r.RemoveHalfMade(a); err != nil {
			return done, fmt.Errorf("remove the half-made worktree %s: %w", a, err)
		}
		done = append(done, a)
	}
	return done, err
}

// halfMade lists them (see repairHalfMade).
func halfMade(s *store.Store, r *git.Repo) ([]string, error) {
	own := WorktreeDir(s, r.CommonDir())
	if real, err := filepath.EvalSymlinks(own); err == nil {
		own = real
	}
	return r.HalfMade(func(path string) bool {
		return realDir(filepath.Dir(path)) == own || inPool(s, r, path)
	})
}
