package git

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
)

// wtDirt is what `git status` finds uncommitted in a worktree.
type wtDirt struct {
	work     bool // anything outside .bh/: the agent's work
	bh       bool // anything in .bh/
	bhStaged bool // .bh/ changes in the index
}

// dirt reads the worktree's status: untracked files count, ignored ones
// do not. Without whole, only .bh/ is looked at (much cheaper on a big
// tree) and work is assumed.
func (w *Worktree) dirt(whole bool) (wtDirt, error) {
	d := wtDirt{work: !whole}
	// Never into a nested repository's files: git would run git there,
	// under that repository's config (see pins); its commit still counts.
	args := []string{"status", "--porcelain", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=dirty"}
	if !whole {
		args = append(args, "--", ".bh")
	}
	out, err := w.wt.Read(nil, args...)
	if err != nil {
		return d, err
	}
	for _, f := range SplitNul(out) {
		if len(f) < 4 {
			continue
		}
		if !isBhPath(f[3:]) {
			d.work = true
			continue
		}
		d.bh = true
		d.bhStaged = d.bhStaged || (f[0] != ' ' && f[0] != '?')
	}
	return d, nil
}

// Conflicts lists the worktree's paths with conflicts not yet staged.
func (w *Worktree) Conflicts() ([]string, error) {
	out, err := w.wt.Read(nil, "diff", "--name-only", "--diff-filter=U", "-z", "--ignore-submodules=dirty")
	if err != nil {
		return nil, err
	}
	paths := SplitNul(out)
	sort.Strings(paths)
	return paths, nil
}

// Unresolved keeps the paths, of those given (the work's), whose file
// still holds a conflict marker at the start of a line: a conflict left
// unresolved, whether its rebase is still in progress or its state is gone
// (the worktree restored from its snapshot elsewhere). Such work is never
// committed. A missing file is a resolution (the deletion).
func (w *Worktree) Unresolved(paths []string) []string {
	var left []string
	for _, p := range paths {
		data, err := os.ReadFile(filepath.Join(w.Path, filepath.FromSlash(p)))
		if err == nil && (bytes.HasPrefix(data, []byte("<<<<<<< ")) || bytes.Contains(data, []byte("\n<<<<<<< "))) {
			left = append(left, p)
		}
	}
	return left
}
