package git

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Linked is one of the repository's linked worktrees, as git lists them.
type Linked struct {
	Path     string // canonical
	Branch   string // short name ("bh/tm-a1b2"); "" when detached
	Prunable bool   // its directory (or .git file) is gone
	Holder   string // whom bh gave it to (a pool slot's task, see ResetSlot); "" for none
	// Tampered says which of its git files are not bh's (see ownTree):
	// an agent tried to make bh's git run its programs.
	Tampered []string
}

// LinkedWorktrees lists the linked worktrees: every one but the main.
func (r *Repo) LinkedWorktrees() ([]Linked, error) {
	r.wtMu.Lock()
	defer r.wtMu.Unlock()
	list, err := r.worktrees()
	if err != nil || len(list) < 2 {
		return nil, err
	}
	out := make([]Linked, 0, len(list)-1)
	for _, e := range list[1:] {
		l := Linked{Path: e.Path, Branch: strings.TrimPrefix(e.Branch, "refs/heads/"), Prunable: e.Prunable || !hasGitFile(e.Path)}
		if admin, err := r.adminOf(e.Path); err == nil && admin != "" && !l.Prunable {
			l.Holder, l.Tampered = r.readHolder(e.Path), r.notOwn(e.Path, admin, "")
		}
		out = append(out, l)
	}
	return out, nil
}

// Unsaved reports whether the worktree holds uncommitted changes that
// snapshot (a commit Snapshot made; "" for none) does not keep: work that
// removing the worktree would lose.
func (w *Worktree) Unsaved(snapshot string) (bool, error) {
	if snapshot != "" {
		base, err := w.repo.Parent(snapshot)
		if err != nil {
			return false, err
		}
		tree, err := w.stateTree(base)
		if err != nil {
			return false, fmt.Errorf("status of %s: %w", w.Branch, err)
		}
		if saved, err := w.repo.commitTree(snapshot); err != nil || saved.Hash == tree {
			return false, err
		}
	}
	out, err := w.wt.Run(w.Path, Env("LC_ALL=C"), nil, "rev-parse", "-q", "--verify", "HEAD")
	if err != nil {
		return false, fmt.Errorf("status of %s: %w", w.Branch, err)
	}
	head := strings.TrimSpace(string(out))
	tree, err := w.stateTree(head)
	if err != nil {
		return false, fmt.Errorf("status of %s: %w", w.Branch, err)
	}
	committed, err := w.repo.commitTree(head)
	if err != nil {
		return false, err
	}
	return committed.Hash != tree, nil
}

// ConfigValue is the repository's git config value for key, "" when unset.
func (r *Repo) ConfigValue(key string) string {
	out, err := r.Read(nil, "config", "--get", key)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// Identity is the user's git name and email, as the repository sees them
// (the last of each, as git config --get says), read in one git process.
func (r *Repo) Identity() (name, email string) {
	v := r.configMatching(`^user\.(name|email)$`)
	return v["user.name"], v["user.email"]
}

// MoveWorktree moves the linked worktree at from to to (which must not
// exist), with its changes and its registration.
func (r *Repo) MoveWorktree(from, to string) error {
	r.wtMu.Lock()
	defer r.wtMu.Unlock()
	if err := os.MkdirAll(filepath.Dir(to), 0o777); err != nil {
		return err
	}
	if err := r.ownWorktree(from); err != nil {
		return fmt.Errorf("move worktree %s: %w", filepath.Base(from), err)
	}
	if _, err := r.Write(nil, "worktree", "move", from, to); err != nil {
		return fmt.Errorf("move worktree %s: %w", filepath.Base(from), err)
	}
	return nil
}

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
