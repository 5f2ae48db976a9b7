package git

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

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
