package git

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// GitRunning reports whether a live process named git works in this
// repository: its working directory (git -C changes it, so it is honest)
// is inside the main worktree, a linked worktree or the git dir. It reads
// /proc; where /proc cannot be read, nothing can be proven and every git
// process counts as running. A git run with GIT_DIR from elsewhere is not
// seen: such a lock is still only called stale when it is old.
func (r *Repo) GitRunning() bool {
	if r == nil {
		return true
	}
	return gitIn(r.family())
}

// gitIn reports whether a live git process works in one of roots (see
// gitRunning).
func gitIn(roots []string) bool {
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		comm, err := os.ReadFile(filepath.Join("/proc", p.Name(), "comm"))
		if err != nil || !strings.HasPrefix(strings.TrimSpace(string(comm)), "git") {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", p.Name(), "cwd"))
		if errors.Is(err, fs.ErrNotExist) {
			continue // it exited meanwhile
		}
		if err != nil {
			return true // a git we may not look into may be ours
		}
		for _, root := range roots {
			if cwd == root || strings.HasPrefix(cwd, root+string(filepath.Separator)) {
				return true
			}
		}
	}
	return false
}

// family is every directory a git process working on this repository
// runs in: the git dir, the main worktree and each linked worktree.
func (r *Repo) family() []string {
	roots := []string{r.commonDir, r.Root}
	if filepath.Base(r.commonDir) == ".git" {
		roots = append(roots, filepath.Dir(r.commonDir))
	}
	files, _ := filepath.Glob(filepath.Join(r.commonDir, "worktrees", "*", "gitdir"))
	for _, f := range files {
		if data, err := os.ReadFile(f); err == nil {
			roots = append(roots, filepath.Dir(strings.TrimSpace(string(data))))
		}
	}
	for i, root := range roots {
		if real, err := filepath.EvalSymlinks(root); err == nil {
			roots[i] = real
		}
	}
	return roots
}
