package git

import (
	"os"
	"path/filepath"
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
	for _, l := range links {
		args = append(args, ":(exclude,literal)"+l)
	}
	return w.wt.Run(w.Path, env, nil, args...)
}

// gitlinks lists the nested repositories in the index env names, read
// in-process; by git when go-git cannot read it (an index extension it
// does not know).
func (w *Worktree) gitlinks(env []string) ([]string, error) {
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
	if err == nil {
		defer f.Close()
		var idx index.Index
		if index.NewDecoder(f).Decode(&idx) == nil {
			var links []string
			for _, e := range idx.Entries {
				if e.Mode == filemode.Submodule {
					links = append(links, e.Name)
				}
			}
			return links, nil
		}
	}
	out, err := w.wt.Run(w.Path, env, nil, "--no-optional-locks", "ls-files", "-s", "-z")
	if err != nil {
		return nil, err
	}
	var links []string
	for _, rec := range SplitNul(out) {
		if meta, p, ok := strings.Cut(rec, "\t"); ok && strings.HasPrefix(meta, "160000 ") {
			links = append(links, p)
		}
	}
	return links, nil
}
