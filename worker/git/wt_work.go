package git

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
)

// Work is the worktree's work as Changed finds it, the paths that differ
// from base, with the index copy that staged it kept for CommitWork: the
// commit then takes that index as the worktree's own instead of staging
// the whole tree again. Close removes the copy.
type Work struct {
	Paths []string
	// Verify, if set, decides on the work once it is staged, before it is
	// committed: it runs the user's commit hooks (CommitHooks) on the
	// worktree, its index as it will be committed, with msgFile holding
	// the commit message, which they may rewrite: it returns the message
	// to commit ("": bh's own). An error stops the commit.
	Verify func(msgFile string) (string, error)
	base   string
	tree   plumbing.Hash // the state Paths are of
	ix     *indexCopy
}

// Close removes the staged index copy, unless a commit took it.
func (k *Work) Close() {
	if k != nil {
		k.ix.remove()
		k.ix = nil
	}
}

// Work is Changed, keeping what it staged for CommitWork.
func (w *Worktree) Work(base string) (*Work, error) {
	tree, ix, err := w.stage(base)
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", w.Branch, err)
	}
	paths, err := w.changedFrom(base, tree)
	if err != nil {
		ix.remove()
		return nil, err
	}
	return &Work{Paths: paths, base: base, tree: tree, ix: ix}, nil
}

// CommittedPaths is the paths commit changes from k's base: k's own when
// commit holds the very state k found (read in-process), else as git
// diffs them (a commit hook changed what was committed, say).
func (w *Worktree) CommittedPaths(k *Work, commit string) ([]string, error) {
	if t, err := w.repo.commitTree(commit); err == nil && t != nil && t.Hash == k.tree {
		return slices.Clone(k.Paths), nil
	}
	return w.repo.ChangedPaths(k.base, commit)
}

// CommitWork squashes everything since k's base (the agent's own commits
// and its uncommitted work, .bh/ left out) into one commit on the branch
// whose parent is that base, through `git commit` in the worktree (no
// hook running: k.Verify runs the user's commit hooks); the worktree is then clean but for
// ignored files. A tip that already is that commit is returned as it is;
// ErrNothingToCommit when nothing differs from base. k's staged index is
// taken when the worktree's is still the one it copied (see adopt).
func (w *Worktree) CommitWork(k *Work, message string) (string, error) {
	c, err := w.commit(k.base, message, k)
	if err != nil {
		return "", fmt.Errorf("commit %s: %w", w.Branch, err)
	}
	return c, nil
}

// adopt makes k's staged copy the worktree's index, as git writes one
// (through index.lock, renamed in place), when the index is still the
// one it was copied from and no git holds it; false when it did not.
func (w *Worktree) adopt(k *Work) bool {
	if k == nil || k.ix == nil || k.ix.from == nil || filepath.Dir(k.ix.path) != w.wt.gitDir {
		return false
	}
	index := filepath.Join(w.wt.gitDir, "index")
	lock := index + ".lock"
	f, err := os.OpenFile(lock, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o666)
	if err != nil {
		return false // another git's: staging afresh waits for it
	}
	f.Close()
	fi, err := os.Stat(index)
	if err == nil {
		err = os.Chmod(k.ix.path, fi.Mode().Perm())
	}
	var now []byte
	if err == nil {
		now, err = os.ReadFile(index)
	}
	if err != nil || !bytes.Equal(now, k.ix.from) || os.Rename(k.ix.path, lock) != nil || os.Rename(lock, index) != nil {
		_ = os.Remove(lock)
		return false
	}
	k.ix = nil
	return true
}
