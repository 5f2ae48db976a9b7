package git

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
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

// addAll stages every change in the worktree but .bh/ (git add -A), into
// the index env names. Nested repositories (gitlinks) stay as the index
// has them (as the agent staged them): git 2.39's add runs `git status`
// inside each to ask whether it is dirty, under that repository's own
// config, whose filters and file monitor are programs the agent wrote.
func (w *Worktree) addAll(env []string) ([]byte, error) {
	args := []string{"add", "-A", "--", ".", ":(exclude).bh"}
	links, err := w.gitlinks(env)
	if err != nil {
		return nil, err
	}
	for _, l := range slices.Sorted(maps.Keys(links)) {
		args = append(args, ":(exclude,literal)"+l)
	}
	return w.wt.Run(w.Path, env, nil, args...)
}

// gitlinks is the commit of each nested repository in the index env names
// (nil: the worktree's), by path, read in-process; by git when go-git
// cannot read it (an index extension it does not know).
func (w *Worktree) gitlinks(env []string) (map[string]string, error) {
	file := filepath.Join(w.wt.gitDir, "index")
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GIT_INDEX_FILE="); ok {
			file = v
		}
	}
	f, err := os.Open(file)
	if os.IsNotExist(err) {
		return nil, nil
	}
	links := map[string]string{}
	if err == nil {
		defer f.Close()
		var idx index.Index
		if index.NewDecoder(f).Decode(&idx) == nil {
			for _, e := range idx.Entries {
				if e.Mode == filemode.Submodule {
					links[e.Name] = e.Hash.String()
				}
			}
			return links, nil
		}
	}
	out, err := w.wt.Run(w.Path, env, nil, "--no-optional-locks", "ls-files", "-s", "-z")
	if err != nil {
		return nil, err
	}
	for _, rec := range SplitNul(out) {
		if meta, p, ok := strings.Cut(rec, "\t"); ok && strings.HasPrefix(meta, "160000 ") {
			links[p] = strings.Fields(meta)[1]
		}
	}
	return links, nil
}
