package usertree

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bh-tracker/bh/worker/git"
)

// GitLock is a lock file found in the repository.
type GitLock struct {
	Path  string
	Age   time.Duration
	Stale bool
}

// StaleLocks lists git's lock files in the repository older than git.StaleAge
// (the index of each worktree, HEAD, refs, packed-refs, config, shallow, a
// killed commit's next-index), each with whether it is stale: held by no
// live git process.
func (r *Tree) StaleLocks() ([]GitLock, error) {
	// Every *.lock at the top of the git dirs: index, HEAD, packed-refs,
	// config, shallow, and the next-index-<pid>.lock of a `git commit --
	// <paths>` killed in its middle.
	paths, _ := filepath.Glob(filepath.Join(r.GitDir(), "*.lock"))
	common, _ := filepath.Glob(filepath.Join(r.CommonDir(), "*.lock"))
	paths = append(paths, common...)
	admins, _ := filepath.Glob(filepath.Join(r.CommonDir(), "worktrees", "*", "*.lock"))
	paths = append(paths, admins...)
	_ = filepath.WalkDir(filepath.Join(r.CommonDir(), "refs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".lock") {
			paths = append(paths, p)
		}
		return nil
	})
	var out []GitLock
	seen := map[string]bool{}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if seen[p] || err != nil || time.Since(fi.ModTime()) <= git.StaleAge {
			continue
		}
		seen[p] = true
		age, stale := r.Stale(p, git.StaleAge)
		out = append(out, GitLock{Path: p, Age: age, Stale: stale})
	}
	return out, nil
}

// RemoveStaleLock removes the lock at path only if it is still stale.
func (r *Tree) RemoveStaleLock(path string) error {
	if _, stale := r.Stale(path, git.StaleAge); !stale {
		return fmt.Errorf("%s is not provably stale (young, or a git process runs in the repository)", path)
	}
	return os.Remove(path)
}
