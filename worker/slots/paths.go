package slots

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/jail"
)

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

// WorktreePath is where task id's worktree lives: the pool slot it holds,
// else its own worktree; the same every time, since
// Claude Code files its sessions by working directory. A worktree of the
// task's branch registered elsewhere (made before HOME, XDG_STATE_HOME or
// worktree.dir changed) is used where it is: git would not check the
// branch out twice, and bh doctor --fix moves it.
func WorktreePath(s *store.Store, r *git.Repo, id string) string {
	if list, err := r.LinkedWorktrees(); err == nil {
		if e := worktreeOf(list, id); e != nil {
			return e.Path
		}
	}
	return filepath.Join(WorktreeDir(s, r.CommonDir()), id)
}

// RepairHalfMade removes the worktree registrations bh left half made (a
// task's worktree whose creation was killed), which make git fetch and gc
// fail in the whole repository; it returns what it removed. The worker
// does it at start, holding the worker lock; bh doctor --fix when asked.
func RepairHalfMade(s *store.Store, r *git.Repo) ([]string, error) {
	admins, err := HalfMade(s, r)
	var done []string
	for _, a := range admins {
		if err := r.RemoveHalfMade(a); err != nil {
			return done, fmt.Errorf("remove the half-made worktree %s: %w", a, err)
		}
		done = append(done, a)
	}
	return done, err
}

// HalfMade lists them (see RepairHalfMade).
func HalfMade(s *store.Store, r *git.Repo) ([]string, error) {
	own := WorktreeDir(s, r.CommonDir())
	if real, err := filepath.EvalSymlinks(own); err == nil {
		own = real
	}
	return r.HalfMade(func(path string) bool {
		return RealDir(filepath.Dir(path)) == own || In(s, r, path)
	})
}

// DiscardWork throws away the work of task id, which a human closed with
// --discard: its worktree, its branch and its parked ref. A task a worker
// runs keeps its worktree: the worker parks it when it sees the task was
// taken back, and bh doctor --fix keeps what no branch holds.
func DiscardWork(s *store.Store, id string) error {
	t, err := s.Get(id)
	if err != nil || t.State == task.InProgress {
		return err
	}
	r, err := git.Open(s.Root)
	if err != nil {
		return err
	}
	path := WorktreePath(s, r, id)
	if _, err := os.Stat(path); err == nil {
		var p Pool // bh close leaves the free slots to the worker, which may be taking one
		if err := p.Drop(s, r, id, path, Branch(id)); err != nil {
			return err
		}
	}
	return r.DeleteRef(git.ParkRef(id))
}
