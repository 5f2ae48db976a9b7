package git

import (
	"fmt"
	"path/filepath"
)

// RemoveWorktree removes bh's worktree at path, whatever it holds, and
// deletes branch unless it is "". Idempotent: a worktree already gone (its
// directory, its registration, or both) and a missing branch are fine, so
// a rerun after a crash finishes the job.
func (r *Repo) RemoveWorktree(path, branch string) error {
	r.wtMu.Lock()
	defer r.wtMu.Unlock()
	path, err := canonPath(path)
	if err == nil {
		err = r.removeWorktree(path)
	}
	if err == nil && branch != "" {
		err = r.deleteBranch(branch)
	}
	if err != nil {
		return fmt.Errorf("remove worktree %s: %w", filepath.Base(path), err)
	}
	return nil
}

func (r *Repo) removeWorktree(path string) error {
	e, err := r.findWorktree(path)
	if err != nil || e == nil {
		return err
	}
	if e.Prunable || !hasGitFile(path) {
		if err := r.pruneVanished(path); err != nil {
			return err
		}
		return clearDir(r.RecordsDir(path))
	}
	// Twice forced: also when dirty, or locked by a killed `worktree add`;
	// so git runs nothing in it either (no status).
	if err := r.ownWorktree(path); err != nil {
		return err
	}
	if _, err := r.Write(nil, "worktree", "remove", "--force", "--force", path); err != nil {
		return err
	}
	return clearDir(r.RecordsDir(path))
}

func (r *Repo) deleteBranch(branch string) error {
	tip, err := r.BranchTip(branch)
	if err != nil || tip == "" {
		return err
	}
	if _, err := r.Write(nil, "branch", "-D", "-q", branch); err != nil {
		return fmt.Errorf("delete branch %s: %w", branch, err)
	}
	return nil
}
