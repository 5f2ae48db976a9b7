// Package usertree is the only code that writes the user's checkout and
// index: landing on their checked-out branch, integrating a pull, committing
// bh's store, holding git's index.lock meanwhile, and Recover, which
// finishes or undoes whichever of these a killed bh left half-done. The
// rest of worker/git is plumbing that never takes the user's index.lock.
package usertree

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bh-tracker/bh/worker/git"
)

// Tree is the user's repository, as this package writes it.
type Tree struct{ *git.Repo }

// Of is r's tree.
func Of(r *git.Repo) *Tree { return &Tree{r} }

// Recover finishes, or undoes, what a killed bh left half-done in the
// user's tree: a sync between moving the tree and its branch, a landing or
// store commit that held the index. Callers hold the landing lock; every
// operation here that moves the tree calls it first.
func (r *Tree) Recover() error {
	if _, err := r.finishIntegrate(); err != nil {
		return err
	}
	return r.finishLanding()
}

// GitLock is a lock file found in the repository.
type GitLock struct {
	Path  string
	Age   time.Duration
	Stale bool
}

// StaleLocks lists git's lock files in the repository older than
// git.StaleAge, each with whether it is stale: held by no live git process.
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
