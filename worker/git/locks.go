package git

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Git takes a lock file for every write, and the user's own git or an
// editor's background `git status` holds one now and then for a few
// milliseconds: contention to wait out, never a failure of its own. Run
// retries the step with backoff while the lock is young.
const (
	// DefaultLockBound is how long one git step waits for a lock.
	DefaultLockBound = time.Minute
	// StaleAge is how old a lock must be, with no git process running in
	// the repository, to count as a killed process's: git holds its locks
	// for milliseconds, `git commit` for as long as its editor is open.
	StaleAge = 5 * time.Minute

	// FirstLockWait is a lock wait's first pause (NextLockWait the next).
	FirstLockWait = 20 * time.Millisecond
	maxLockWait   = time.Second
)

// LockedError is a git step that a lock stopped: past the wait bound, or
// at once when the lock is stale (waiting would never end).
type LockedError struct {
	Path   string        // the lock file, absolute
	Age    time.Duration // since the lock file was last written
	Waited time.Duration // how long the step waited for it
	Stale  bool          // old, and no git process runs in the repository
	Err    error         // git's own failure
}

func (e *LockedError) Error() string {
	step := "git"
	if ge, ok := errors.AsType[*gitError](e.Err); ok {
		step = "git " + ge.subcommand()
	}
	if e.Stale {
		return fmt.Sprintf("%s: %s is a stale lock (%s old, and no git process runs in the repository)",
			step, e.Path, Age(e.Age))
	}
	return fmt.Sprintf("%s: %s is held by another git process (bh waited %s)", step, e.Path, Age(e.Waited))
}

func (e *LockedError) Unwrap() error { return e.Err }

// Hooks observe git steps: tests hold a lock before a step and let it go
// when the step waits for it.
type Hooks struct {
	Before func(dir string, args []string) // before each git command (not its retries)
	Wait   func(LockWait)                  // before each pause for a lock
	// Tampered is told of a task's worktree whose git files were not
	// bh's, after they were rewritten (see ownTree).
	Tampered func(*Tampered)
}

// LockWait is one pause of a git step for a lock, told to Hooks.Wait
// before the pause.
type LockWait struct {
	Path   string
	Waited time.Duration // so far
	Args   []string      // the git command waiting
}

// lockRe matches git's words for a lock someone else holds. A ref update
// refused because the ref moved ("cannot lock ref 'x': is at A but
// expected B") is a compare-and-swap failure, not contention: no match.
var lockRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`Unable to create '([^'\n]+\.lock)': File exists|could not lock config file ([^\n]+): File exists`)
})

// lockedPath is the lock file git's failure err names, "" when err is not
// lock contention.
func lockedPath(err error, dir string) string {
	ge, ok := errors.AsType[*gitError](err)
	if !ok {
		return ""
	}
	m := lockRe().FindStringSubmatch(ge.Stderr)
	if m == nil {
		return ""
	}
	p := cmp.Or(m[1], m[2]+".lock") // git names the config file, and locks <config>.lock
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

// WaitLock decides what a git step that met the lock at path does after
// waiting waited: nil to try again (after pausing), or the error to return.
func (r *Repo) WaitLock(path string, waited time.Duration, err error, args []string) error {
	age, stale := r.Stale(path, StaleAge)
	bound := DefaultLockBound
	if r != nil && r.LockBound > 0 {
		bound = r.LockBound
	}
	if stale || waited >= bound {
		return &LockedError{Path: path, Age: age, Waited: waited, Stale: stale, Err: err}
	}
	if h := r.hooks(); h.Wait != nil {
		h.Wait(LockWait{Path: path, Waited: waited, Args: args})
	}
	return nil
}

// NextLockWait doubles the pause, up to a second.
func NextLockWait(d time.Duration) time.Duration { return min(2*d, maxLockWait) }

// Stale reports path's age, and whether it is a dead process's lock:
// older than minAge and no git process runs in this repository.
func (r *Repo) Stale(path string, minAge time.Duration) (time.Duration, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, false // gone meanwhile: try again
	}
	age := time.Since(fi.ModTime())
	return age, age > minAge && !r.GitRunning()
}

// Age says an age as a person would.
func Age(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	case d >= time.Hour:
		return d.Round(time.Minute).String()
	case d >= time.Minute:
		return d.Round(time.Second).String()
	}
	return d.Round(time.Millisecond).String()
}

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

// gitIn reports whether a live git process works in one of roots.
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
