package git

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// WorktreeEntry is one record of `git worktree list --porcelain -z`.
type WorktreeEntry struct {
	Path     string
	Branch   string // full ref name; "" when detached or bare
	Bare     bool
	Prunable bool // its directory (or .git file) is gone
}

// Worktrees lists the repository's working trees, the main one first.
func (r *Repo) Worktrees() ([]WorktreeEntry, error) {
	r.wtMu.Lock()
	defer r.wtMu.Unlock()
	return r.worktrees()
}

// worktrees is Worktrees for a caller holding wtMu.
func (r *Repo) worktrees() ([]WorktreeEntry, error) {
	list, gen := r.listing.shared()
	if list != nil {
		return list, nil
	}
	out, err := r.Read(nil, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return nil, fmt.Errorf("list worktrees: %w", err)
	}
	var cur *WorktreeEntry
	for _, f := range SplitNul(out) {
		key, val, _ := strings.Cut(f, " ")
		switch {
		case f == "":
			cur = nil // end of a record
		case key == "worktree":
			list = append(list, WorktreeEntry{Path: val})
			cur = &list[len(list)-1]
		case cur == nil:
		case key == "branch":
			cur.Branch = val
		case key == "bare":
			cur.Bare = true
		case key == "prunable":
			cur.Prunable = true
		}
	}
	r.listing.keep(list, gen)
	return list, nil
}

// findWorktree is the registered linked worktree at path (canonical), or nil.
func (r *Repo) findWorktree(path string) (*WorktreeEntry, error) {
	list, err := r.worktrees()
	if err != nil {
		return nil, err
	}
	for i, e := range list {
		if i > 0 && e.Path == path {
			return &list[i], nil
		}
	}
	return nil, nil
}

// staleLock is how old an index.lock in bh's own worktree must be to count
// as a killed process's (with no git running, see Repo.stale): no agent
// runs in it while it is repaired, and git holds it for milliseconds.
const staleLock = 10 * time.Second

// repairWorktree reports whether the registered worktree e can be reused
// as it is. One whose directory vanished is unlocked and pruned; one that a
// killed `git worktree add` left half made (git's "initializing" lock
// still there; no agent ever ran in it) is removed. Either way the caller
// adds it again.
func (r *Repo) repairWorktree(e *WorktreeEntry) (bool, error) {
	admin, err := r.adminOf(e.Path)
	if err != nil {
		return false, err
	}
	switch {
	case admin != "" && readTrimmed(admin, "locked") == "initializing":
		_ = os.Remove(filepath.Join(admin, "index.lock"))
		if _, err := r.Write(nil, "worktree", "remove", "--force", "--force", e.Path); err != nil {
			return false, fmt.Errorf("remove half-made worktree: %w", err)
		}
		return false, nil
	case e.Prunable || !hasGitFile(e.Path):
		return false, r.pruneWorktree(admin)
	}
	// A killed agent's git may have left its lock; none runs now.
	if _, stale := r.Stale(filepath.Join(admin, "index.lock"), staleLock); stale {
		_ = os.Remove(filepath.Join(admin, "index.lock"))
	}
	if admin == "" {
		return true, nil
	}
	return true, r.ownTree(e.Path, admin, "")
}

// pruneVanished prunes the registered worktree at path, whose directory
// is gone.
func (r *Repo) pruneVanished(path string) error {
	admin, err := r.adminOf(path)
	if err != nil {
		return err
	}
	return r.pruneWorktree(admin)
}

// pruneWorktree drops the registration of a worktree whose directory is
// gone; a lock left on it (by a killed add, or anyone) would stop prune.
func (r *Repo) pruneWorktree(admin string) error {
	if admin != "" {
		if err := os.Remove(filepath.Join(admin, "locked")); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if _, err := r.Write(nil, "worktree", "prune"); err != nil {
		return fmt.Errorf("prune worktrees: %w", err)
	}
	return nil
}

// HalfMade lists, by admin dir, the worktree registrations bh left that
// git trips on: those of bh's own (ours says which paths are) that a
// killed `git worktree add` left half made (HEAD never written, "initializing" lock still on). While
// one is there, git fetch and gc fail ("bad object worktrees/…/HEAD").
func (r *Repo) HalfMade(ours func(path string) bool) ([]string, error) {
	admins, err := filepath.Glob(filepath.Join(r.commonDir, "worktrees", "*"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, admin := range admins {
		path := filepath.Dir(readTrimmed(admin, "gitdir"))
		if readTrimmed(admin, "locked") == "initializing" && ours(path) && !validHead(admin) {
			out = append(out, admin)
		}
	}
	return out, nil
}

// validHead reports whether the worktree's HEAD names a branch or a commit
// (a half-made one holds zeros, or nothing).
func validHead(admin string) bool {
	head := readTrimmed(admin, "HEAD")
	return strings.HasPrefix(head, "ref: ") || head != "" && strings.Trim(head, "0") != ""
}

// RemoveHalfMade removes a registration HalfMade found, and its checkout:
// a scratch or half-made worktree holds nothing of anyone's.
func (r *Repo) RemoveHalfMade(admin string) error {
	if path := filepath.Dir(readTrimmed(admin, "gitdir")); path != "." && path != "" {
		if err := os.RemoveAll(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := os.RemoveAll(admin); err != nil {
		return err
	}
	_, err := r.Write(nil, "worktree", "prune")
	return err
}
