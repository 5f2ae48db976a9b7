// Package slots places a task's worktree: the warm worktree pool (slots a
// task takes and gives back), a task's branch and its worktree's path.
package slots

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"

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

// Pool serializes taking and giving back slots: one task at a time. Lock
// it while placing a task's worktree (For, then Reset).
type Pool struct {
	sync.Mutex
	Trims bool // the running worker (alone) removes the pool's extra free slots
	Jobs  int  // the pool's size: free slots beyond it are removed
}

// On reports whether tasks take pool slots (worktree.pool, default on).
func On(s *store.Store) bool { p := s.Config.Worktree.Pool; return p == nil || *p }

// PoolDir is the folder of the repository's slots, named 1, 2, ….
func PoolDir(s *store.Store, commonDir string) string {
	return filepath.Join(WorktreeDir(s, commonDir), "pool")
}

// In reports whether path is one of the pool's slots.
func In(s *store.Store, r *git.Repo, path string) bool {
	return RealDir(filepath.Dir(path)) == RealDir(PoolDir(s, r.CommonDir()))
}

// RealDir is dir with its links resolved, else cleaned.
func RealDir(dir string) string {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	return filepath.Clean(dir)
}

// List lists the registered slots.
func List(s *store.Store, r *git.Repo) ([]git.Linked, error) {
	list, err := r.LinkedWorktrees()
	var out []git.Linked
	for _, e := range list {
		if In(s, r, e.Path) {
			out = append(out, e)
		}
	}
	return out, err
}

// For is where task id works: the worktree that has its branch
// checked out (its slot, or a worktree of its own), else a free slot (a
// new one when none is free), else without the pool its own worktree's
// path. The caller holds the Pool until the slot holds the branch.
func For(s *store.Store, r *git.Repo, id string) (path string, pooled bool, err error) {
	list, err := r.LinkedWorktrees()
	if err != nil {
		return "", false, err
	}
	if e := worktreeOf(list, id); e != nil {
		return e.Path, In(s, r, e.Path), nil
	}
	for _, e := range list { // its folder removed by hand: made again where it was
		if e.Prunable && (e.Holder == id || e.Branch == Branch(id)) {
			return e.Path, In(s, r, e.Path), nil
		}
	}
	if !On(s) {
		return filepath.Join(WorktreeDir(s, r.CommonDir()), id), false, nil
	}
	dir := PoolDir(s, r.CommonDir())
	used := map[string]bool{}
	for _, e := range list {
		if !In(s, r, e.Path) {
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

// Reset gives task id the slot at path, on its branch (started at
// start when new), cleaned but for worktree.copy's files and
// worktree.keep's caches. A slot that already holds the task with its base
// recorded is its parked work: kept as it is.
func Reset(s *store.Store, r *git.Repo, id, path, start string) (wt *git.Worktree, created bool, err error) {
	if Holds(s, r, path, id) { // opened on its branch only when its: a free slot's HEAD may be on another
		if wt, err = r.OpenWorktree(path, Branch(id)); err != nil {
			return nil, false, err
		}
		if wt != nil && wt.RecordedBase() != "" {
			return wt, false, nil
		}
	}
	spare := append([]string{}, s.Config.Worktree.Keep...)
	for _, p := range s.Config.Worktree.Copy {
		spare = append(spare, "/"+p) // relative to the top, as copied
	}
	wt, err = r.ResetSlot(path, id, Branch(id), start, s.Root, spare)
	return wt, err == nil, err
}

// Holds reports whether the slot at path is task id's.
func Holds(s *store.Store, r *git.Repo, path, id string) bool {
	slots, _ := List(s, r)
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

// Drop is done with task id's worktree at path: a slot goes back
// to the pool (the pool trimmed to its size), a task's own worktree is
// removed; branch is deleted unless "".
func (p *Pool) Drop(s *store.Store, r *git.Repo, id, path, branch string) error {
	if !In(s, r, path) {
		return r.RemoveWorktree(path, branch)
	}
	p.Lock()
	defer p.Unlock()
	if err := r.ReleaseSlot(path, id, Branch(id), branch != ""); err != nil || !p.Trims {
		return err // bh land and bh continue leave the free slots to the worker, which may be taking one
	}
	return p.trim(s, r)
}

// trim removes the free slots beyond the pool's size and the
// registrations of slots whose folder is gone.
func (p *Pool) trim(s *store.Store, r *git.Repo) error {
	slots, err := List(s, r)
	if err != nil {
		return err
	}
	free := 0
	for _, e := range slots {
		switch {
		case e.Holder != "" && !e.Prunable:
			continue // held
		case !e.Prunable && free < max(p.Jobs, 1):
			free++
			continue
		}
		if err := r.RemoveWorktree(e.Path, ""); err != nil {
			return fmt.Errorf("trim the worktree pool: %w", err)
		}
	}
	return nil
}
