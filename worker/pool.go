package worker

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
)

// The pool: warm worktrees (slots) a task takes and gives back, instead of
// a worktree checked out whole for each task and removed after. A slot
// records the task it holds (git.Linked.Holder): while the task runs and
// while it is parked (its work stays in the slot, as in a task's own
// worktree), until its work lands or is discarded. A free slot records
// none, and its HEAD is detached. Free slots beyond the pool's size (-j)
// are removed, so disk use is bounded by the running and parked tasks,
// not by all tasks.

// poolOn reports whether tasks take pool slots (worktree.pool, default on).
func poolOn(s *store.Store) bool { p := s.Config.Worktree.Pool; return p == nil || *p }

// PoolDir is the folder of the repository's slots, named 1, 2, ….
func PoolDir(s *store.Store, commonDir string) string {
	return filepath.Join(WorktreeDir(s, commonDir), "pool")
}

// inPool reports whether path is one of the pool's slots.
func inPool(s *store.Store, r *git.Repo, path string) bool {
	return realDir(filepath.Dir(path)) == realDir(PoolDir(s, r.CommonDir()))
}

func realDir(dir string) string {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	return filepath.Clean(dir)
}

// poolSlots lists the registered slots.
func poolSlots(s *store.Store, r *git.Repo) ([]git.Linked, error) {
	list, err := r.LinkedWorktrees()
	var out []git.Linked
	for _, e := range list {
		if inPool(s, r, e.Path) {
			out = append(out, e)
		}
	}
	return out, err
}

// worktreeFor is where task id works: the worktree that has its branch
// checked out (its slot, or a worktree of its own), else a free slot (a
// new one when none is free), else without the pool its own worktree's
// path. The caller holds poolMu until the slot holds the branch.
func (w *worker) worktreeFor(id string) (path string, pooled bool, err error) {
	list, err := w.repo.LinkedWorktrees()
	if err != nil {
		return "", false, err
	}
	if e := worktreeOf(list, id); e != nil {
		return e.Path, inPool(w.s, w.repo, e.Path), nil
	}
	for _, e := range list { // its folder removed by hand: made again where it was
		if e.Prunable && (e.Holder == id || e.Branch == Branch(id)) {
			return e.Path, inPool(w.s, w.repo, e.Path), nil
		}
	}
	if !poolOn(w.s) {
		return filepath.Join(WorktreeDir(w.s, w.repo.CommonDir()), id), false, nil
	}
	dir := PoolDir(w.s, w.repo.CommonDir())
	used := map[string]bool{}
	for _, e := range list {
		if !inPool(w.s, w.repo, e.Path) {
			continue
		}
		used[filepath.Base(e.Path)] = true
		if e.Holder == "" && !e.Prunable {
			return e.Path, true, nil
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		used[e.Name()] = true // a stray one is bh doctor's, not reused blind
	}
	for n := 1; ; n++ {
		if !used[strconv.Itoa(n)] {
			return filepath.Join(dir, strconv.Itoa(n)), true, nil
		}
	}
}

// resetSlot gives task id the slot at path, on its branch (started at
// start when new), cleaned but for worktree.copy's files and
// worktree.keep's caches. A slot that already holds the task with its base
// recorded is its parked work: kept as it is.
func (w *worker) resetSlot(id, path, start string) (wt *git.Worktree, created bool, err error) {
	if w.slotHolds(path, id) { // opened on its branch only when its: a free slot's HEAD may be on another
		if wt, err = w.repo.OpenWorktree(path, Branch(id)); err != nil {
			return nil, false, err
		}
		if wt != nil && wt.RecordedBase() != "" {
			return wt, false, nil
		}
	}
	spare := append([]string{}, w.s.Config.Worktree.Keep...)
	for _, p := range w.s.Config.Worktree.Copy {
		spare = append(spare, "/"+p) // relative to the top, as copied
	}
	wt, err = w.repo.ResetSlot(path, id, Branch(id), start, w.s.Root, spare)
	return wt, err == nil, err
}

// slotHolds reports whether the slot at path is task id's.
func (w *worker) slotHolds(path, id string) bool {
	slots, _ := poolSlots(w.s, w.repo)
	for _, e := range slots {
		if e.Path == path && e.Holder == id && !e.Prunable {
			return true
		}
	}
	return false
}

// worktreeOf is task id's worktree in list: the slot it holds, or one
// with its branch checked out (its own, not a slot's). nil: none.
func worktreeOf(list []git.Linked, id string) *git.Linked {
	for i, e := range list {
		if !e.Prunable && (e.Holder == id || e.Holder == "" && e.Branch == Branch(id)) {
			return &list[i]
		}
	}
	return nil
}

// dropWorktree is done with task id's worktree at path: a slot goes back
// to the pool (the pool trimmed to its size), a task's own worktree is
// removed; branch is deleted unless "".
func (w *worker) dropWorktree(id, path, branch string) error {
	if !inPool(w.s, w.repo, path) {
		return w.repo.RemoveWorktree(path, branch)
	}
	w.poolMu.Lock()
	defer w.poolMu.Unlock()
	if err := w.repo.ReleaseSlot(path, id, Branch(id), branch != ""); err != nil || !w.trims {
		return err // bh land and bh continue leave the free slots to the worker, which may be taking one
	}
	return w.trimPool()
}

// trimPool removes the free slots beyond the pool's size and the
// registrations of slots whose folder is gone.
func (w *worker) trimPool() error {
	slots, err := poolSlots(w.s, w.repo)
	if err != nil {
		return err
	}
	free := 0
	for _, e := range slots {
		switch {
		case e.Holder != "" && !e.Prunable:
			continue // held
		case !e.Prunable && free < max(w.opt.Jobs, 1):
			free++
			continue
		}
		if err := w.repo.RemoveWorktree(e.Path, ""); err != nil {
			return fmt.Errorf("trim the worktree pool: %w", err)
		}
	}
	return nil
}
