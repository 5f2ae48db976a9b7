package git

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// Snapshot writes the worktree's whole state (HEAD's tree and every
// uncommitted change: modified, deleted, untracked but not ignored files;
// .bh/ as base has it) as a commit whose single parent is base, and returns
// it with the paths that differ from base. The worktree, its index and
// HEAD are left alone. commit is "" and paths empty when nothing differs.
func (w *Worktree) Snapshot(base, message string) (commit string, paths []string, err error) {
	k, err := w.Work(base)
	if err != nil {
		return "", nil, err
	}
	k.Close() // its tree and paths are all a snapshot needs
	if len(k.Paths) == 0 {
		return "", nil, nil
	}
	c, err := w.repo.writeCommit(k.tree, []plumbing.Hash{plumbing.NewHash(base)}, message)
	if err != nil {
		return "", nil, fmt.Errorf("snapshot %s: %w", w.Branch, err)
	}
	return c.String(), k.Paths, nil
}

// Changed is the paths Snapshot would report, without its commit.
func (w *Worktree) Changed(base string) ([]string, error) {
	k, err := w.Work(base)
	if err != nil {
		return nil, err
	}
	k.Close()
	return k.Paths, nil
}

// Touched is the paths changed from where the work starts: base, or the
// commit a rebase in progress has reached (RebaseHead).
func (w *Worktree) Touched(base string) ([]string, error) {
	head, err := w.RebaseHead()
	if err != nil {
		return nil, err
	}
	return w.Changed(cmp.Or(head, base))
}

// changedFrom is the paths where tree differs from base's, sorted.
func (w *Worktree) changedFrom(base string, tree plumbing.Hash) ([]string, error) {
	baseTree, err := w.repo.commitTree(base)
	if err != nil || baseTree == nil || baseTree.Hash == tree {
		return nil, err
	}
	paths, err := w.repo.ChangedPaths(baseTree.Hash.String(), tree.String())
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", w.Branch, err)
	}
	return paths, nil
}

// stateTree is the worktree's state as a tree (see stage).
func (w *Worktree) stateTree(base string) (plumbing.Hash, error) {
	tree, ix, err := w.stage(base)
	ix.remove()
	return tree, err
}

// stage stages everything into a copy of the worktree's index (git
// honours the ignore rules, filters and the stat cache: only changed files
// are read) and writes it as a tree, with .bh/ taken from base. The copy
// is returned too, for the caller to remove.
func (w *Worktree) stage(base string) (plumbing.Hash, *indexCopy, error) {
	ix, err := w.tempIndex()
	if err != nil {
		return plumbing.ZeroHash, nil, err
	}
	out, err := w.addAll(ix.env)
	if err == nil {
		out, err = w.wt.Run(w.Path, ix.env, nil, "write-tree")
	}
	var tree plumbing.Hash
	if err == nil {
		tree, err = w.repo.withBhOf(plumbing.NewHash(strings.TrimSpace(string(out))), base)
	}
	if err != nil {
		ix.remove()
		return plumbing.ZeroHash, nil, err
	}
	return tree, ix, nil
}

// indexCopy is a temporary copy of a worktree's index: its file, the
// environment that points git at it (pathspec magic on, for :(exclude)),
// and the bytes of the index it was copied from (nil when there was none).
type indexCopy struct {
	path string
	env  []string
	from []byte
}

func (ix *indexCopy) remove() {
	if ix != nil {
		_ = os.Remove(ix.path)
	}
}

// tempIndex copies the worktree's index to a temporary file.
func (w *Worktree) tempIndex() (*indexCopy, error) {
	f, err := os.CreateTemp(w.wt.gitDir, "bh-index-")
	if err != nil {
		return nil, err
	}
	f.Close()
	ix := &indexCopy{path: f.Name(), env: Env("GIT_INDEX_FILE="+f.Name(), "GIT_LITERAL_PATHSPECS=0")}
	ix.from, err = CopyIndex(filepath.Join(w.wt.gitDir, "index"), ix.path)
	if errors.Is(err, fs.ErrNotExist) { // no index at all: start from HEAD
		_ = os.Remove(ix.path)
		_, err = w.wt.Run(w.Path, ix.env, nil, "read-tree", "HEAD")
	}
	if err != nil {
		ix.remove()
		return nil, fmt.Errorf("temporary index: %w", err)
	}
	return ix, nil
}

// CopyIndex copies the index file src to dst and returns its bytes. The
// copy keeps the mtime too: git takes an entry whose file changed in the
// tick the index was written in as possibly modified ("racily clean") by
// comparing the two, and a copy dated now would hide such an edit behind
// a stat match. An index replaced between the stat and the read is dated
// too early, which costs git only a few needless reads.
func CopyIndex(src, dst string) ([]byte, error) {
	fi, err := os.Stat(src)
	var data []byte
	if err == nil {
		data, err = os.ReadFile(src)
	}
	if err == nil {
		err = os.WriteFile(dst, data, 0o644)
	}
	if err == nil {
		err = os.Chtimes(dst, time.Time{}, fi.ModTime())
	}
	return data, err
}

// Restore makes a freshly (re)created worktree's files equal to
// snapshot's tree (files absent from it removed); the index and HEAD
// stay, so that the restored work shows as uncommitted changes. The base
// becomes snapshot's parent, which its paths are relative to.
func (w *Worktree) Restore(snapshot string) error {
	ix, err := w.tempIndex()
	if err == nil {
		defer ix.remove()
		// From the index's entries (stat data valid) to snapshot's: git
		// writes what differs and deletes what snapshot lacks.
		_, err = w.wt.Run(w.Path, ix.env, nil, "read-tree", "--reset", "-u", snapshot)
	}
	var parent string
	if err == nil {
		parent, err = w.repo.Parent(snapshot)
	}
	if err == nil {
		err = w.SetBase(parent)
	}
	if err != nil {
		return fmt.Errorf("restore %s into %s: %w", Short(snapshot), w.Branch, err)
	}
	return nil
}
