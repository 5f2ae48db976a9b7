package repo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// cleanState is a working-tree file hashed as `git add` would store it, so
// that it compares equal to its blob in a tree even through clean filters.
type cleanState struct {
	Exists bool
	Mode   filemode.FileMode
	Hash   plumbing.Hash
	dir    bool // a directory stands at the path
}

func (r *Repo) cleanStates(paths []string) (map[string]cleanState, error) {
	states := map[string]cleanState{}
	var regular []string
	for _, p := range paths {
		if fi, err := os.Lstat(r.abs(p)); err == nil && fi.IsDir() {
			states[p] = cleanState{dir: true}
			continue
		}
		f, err := r.readFile(p)
		if err != nil {
			return nil, err
		}
		s := cleanState{Exists: f.Exists, Mode: f.Mode}
		if f.Mode == filemode.Symlink {
			s.Hash = f.hash()
		} else if f.Exists {
			regular = append(regular, p)
		}
		states[p] = s
	}
	hashes, err := r.hashFiles(regular, false)
	if err != nil {
		return nil, err
	}
	for i, p := range regular {
		s := states[p]
		s.Hash = hashes[i]
		states[p] = s
	}
	return states, nil
}

// mergeFile merges, three ways, the working-tree file p (ours) with the
// parked change from base to theirs. All three sides are in working-tree
// form (smudged), so the result can be written as it is. clean is false on
// a conflict or when git cannot merge the content (binary files).
func (r *Repo) mergeFile(p string, base, theirs object.TreeEntry) (merged []byte, clean bool, err error) {
	dir, err := os.MkdirTemp("", "bh-merge-")
	if err != nil {
		return nil, false, err
	}
	defer os.RemoveAll(dir)
	files := map[string]plumbing.Hash{"base": base.Hash, "theirs": theirs.Hash}
	for name, h := range files {
		data, err := r.read(nil, "cat-file", "--filters", "--path="+p, h.String())
		if err != nil {
			return nil, false, fmt.Errorf("merge %s: %w", p, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			return nil, false, fmt.Errorf("merge %s: %w", p, err)
		}
	}
	out, err := r.read(nil, "merge-file", "-p", "-L", "current", "-L", "parked base", "-L", "parked",
		r.abs(p), filepath.Join(dir, "base"), filepath.Join(dir, "theirs"))
	var ge *gitError
	switch {
	case err == nil:
		return out, true, nil
	case errors.As(err, &ge) && ge.Code > 0 && ge.Code < 128:
		return nil, false, nil // the exit code counts the conflicts
	case errors.As(err, &ge) && strings.Contains(ge.Stderr, "Cannot merge binary files"):
		return nil, false, nil
	}
	return nil, false, fmt.Errorf("merge %s: %w", p, err)
}
