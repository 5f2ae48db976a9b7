package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// Local is bh's machine-local state of this working tree, or the file at
// names in it: the worker lock, the task locks, the list cache, the run
// folders (logs, transcripts, journals). It lives in the tree's git dir
// (.git/bh, or .git/worktrees/<name>/bh in a linked worktree), where git
// clean, git stash and git checkout never reach; .bh/ holds what the
// user's history should. The one place that says where.
func (s *Store) Local(names ...string) string {
	return filepath.Join(append([]string{s.local}, names...)...)
}

// LocalOf is Local of the store of the tree at root, without opening it.
func LocalOf(root string) string { return localDir(root) }

// localDir is the git dir of the tree at root, with bh/ in it; root/.bh/.local
// where root has no git dir bh can find (a store copied out of its repository).
func localDir(root string) string {
	dot := filepath.Join(root, ".git")
	fi, err := os.Stat(dot)
	if err == nil && fi.IsDir() {
		return filepath.Join(dot, "bh")
	}
	if b, err := os.ReadFile(dot); err == nil {
		if d, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: "); ok {
			if !filepath.IsAbs(d) {
				d = filepath.Join(root, d)
			}
			return filepath.Join(filepath.Clean(d), "bh")
		}
	}
	return filepath.Join(root, ".bh", ".local")
}

// movedOut are the names older bh kept in .bh/, which now live in Local.
var movedOut = []string{"runs", "locks", "cache", "worker.lock"}

// migrateLocal moves, once, what older bh kept of its local state in .bh/
// into Local. What cannot be moved (Local has it already, another file
// system) stays where it is, unused.
func (s *Store) migrateLocal() {
	for _, name := range movedOut {
		old := filepath.Join(s.Dir, name)
		if _, err := os.Lstat(old); err != nil {
			continue
		}
		if err := os.MkdirAll(s.local, 0o755); err != nil {
			return
		}
		if _, err := os.Lstat(s.Local(name)); errors.Is(err, os.ErrNotExist) {
			os.Rename(old, s.Local(name))
		}
	}
}
