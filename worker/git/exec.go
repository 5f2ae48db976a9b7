package git

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// gitError is a git command that failed; Stderr carries git's own words.
type gitError struct {
	Args   []string
	Code   int
	Stdout string
	Stderr string
	Err    error
}

func (e *gitError) Error() string {
	msg := cmp.Or(strings.TrimSpace(e.Stderr), strings.TrimSpace(e.Stdout), e.Err.Error())
	msg = strings.TrimPrefix(msg, "fatal: ")
	msg = strings.TrimPrefix(msg, "error: ")
	return fmt.Sprintf("git %s: %s", e.subcommand(), msg)
}

// subcommand is the git command run, past options such as -c key=value.
func (e *gitError) subcommand() string {
	for i := 0; i < len(e.Args); i++ {
		switch a := e.Args[i]; {
		case a == "-c" || a == "-C":
			i++
		case !strings.HasPrefix(a, "-"):
			return a
		}
	}
	return strings.Join(e.Args, " ")
}

func (e *gitError) Unwrap() error { return e.Err }

// Env makes our pathspecs literal (a file named "*.go" must never stand
// for every Go file) and never lets git wait for a password.
func Env(extra ...string) []string {
	env := append(os.Environ(), "GIT_LITERAL_PATHSPECS=1", "GIT_TERMINAL_PROMPT=0")
	return append(env, extra...)
}

// Run runs every git command bh runs, in dir. A step that meets a lock another
// git process holds is tried again with backoff (see locks.go); r may be
// nil (before a Repo exists): the defaults apply.
func (r *Repo) Run(dir string, env []string, stdin []byte, args ...string) ([]byte, error) {
	if r != nil {
		r.listing.drop(args)
		defer r.listing.drop(args)
	}
	if r != nil && r.main != nil && dir == r.Root {
		var err error
		if env, args, err = r.guard(env, args); err != nil {
			return nil, err
		}
	}
	args = append(slices.Clip(noHooks), args...)
	if h := r.hooks(); h.Before != nil {
		h.Before(dir, args) // the command line as git gets it
	}
	var waited time.Duration
	for pause := FirstLockWait; ; pause = NextLockWait(pause) {
		out, err := execGit(dir, env, stdin, args...)
		path := lockedPath(err, dir)
		if path == "" || !r.local(path, dir) {
			return out, err // a remote's lock is the remote's (see RemoteLockError), not to wait on here
		}
		if err := r.WaitLock(path, waited, err, args); err != nil {
			return out, err
		}
		time.Sleep(pause)
		waited += pause
	}
}

// hooks are the main repository's, for a worktree's Repo too: a test
// sets them on the one it opened.
func (r *Repo) hooks() Hooks {
	switch {
	case r == nil:
		return Hooks{}
	case r.main != nil:
		return r.main.Hooks
	}
	return r.Hooks
}

// noHooks is first on every git command bh runs (Run, hooklessGit): git runs no hook, in the user's
// tree as in a task's worktree (commit, merge, rebase, checkout, worktree
// add, push, update-ref's reference-transaction...). A hook is a program,
// and what it runs there (a Makefile, node_modules/.bin, package.json's
// scripts) is the agent's: the user's commit hooks run sandboxed instead
// (CommitHooks), the others not at all. git hands it on to the gits it
// starts (GIT_CONFIG_PARAMETERS), a submodule's too.
var noHooks = []string{"-c", "core.hooksPath=" + os.DevNull}

// execGit runs one git command, not through agent/proc: git must finish a
// step even when bh is killed in its middle (a git killed with bh would
// leave its lock behind for the user's next git command to trip on), and
// a git command is short and never waits on a human: no cancelling.
func execGit(dir string, env []string, stdin []byte, args ...string) ([]byte, error) {
	if f := observer.Load(); f != nil {
		(*f)(append([]string{"git"}, args...))
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		ge := &gitError{Args: args, Code: -1, Stdout: stdout.String(), Stderr: stderr.String(), Err: err}
		if ee, ok := errors.AsType[*exec.ExitError](err); ok {
			ge.Code = ee.ExitCode()
		}
		return stdout.Bytes(), ge
	}
	return stdout.Bytes(), nil
}

// Write runs a command that may write the index, the working tree or refs.
// The user's locale stays: their commit hooks run under it.
func (r *Repo) Write(stdin []byte, args ...string) ([]byte, error) {
	return r.Run(r.Root, Env(), stdin, args...)
}

// Read runs a read-only command without taking optional locks, so bh never
// competes with the user's editor or shell prompt for index.lock.
func (r *Repo) Read(stdin []byte, args ...string) ([]byte, error) {
	return r.Run(r.Root, Env("LC_ALL=C"), stdin, append([]string{"--no-optional-locks"}, args...)...)
}

// SplitNul splits -z output, dropping the empty tail.
func SplitNul(out []byte) []string {
	if len(out) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

// local reports whether a lock git met is in this repository (its git
// dirs, or the tree the command ran in) rather than in a remote a push or
// fetch reached, which bh names instead of waiting on.
func (r *Repo) local(path, dir string) bool {
	in := func(root string) bool {
		return root != "" && (path == root || strings.HasPrefix(path, filepath.Clean(root)+string(filepath.Separator)))
	}
	return r != nil && (in(r.commonDir) || in(r.gitDir)) || in(dir)
}

// IsExit reports whether err is git exiting with code.
func IsExit(err error, code int) bool {
	ge, ok := errors.AsType[*gitError](err)
	return ok && ge.Code == code
}

// Stderr is what git said on stderr when err is a git command's failure.
func Stderr(err error) (string, bool) {
	ge, ok := errors.AsType[*gitError](err)
	if !ok {
		return "", false
	}
	return ge.Stderr, true
}

// hooklessGit runs a git command of no Repo's (a clone, the demo's), its
// hooks off too.
func hooklessGit(dir string, args ...string) ([]byte, error) {
	return execGit(dir, nil, nil, append(slices.Clip(noHooks), args...)...)
}

// observer is told of every git command as it starts (see Observe).
var observer atomic.Pointer[func([]string)]

// Observe has f told the command line of every git command bh runs from
// now on, whichever repository's, as git gets it: agent/proc.Observe's
// twin for bh's git, which does not start through agent/proc (a git step
// must finish even when bh is cancelled, and worker/git imports nothing
// of bh's). f must be safe for concurrent use; stop ends it.
func Observe(f func(argv []string)) (stop func()) {
	observer.Store(&f)
	return func() { observer.Store(nil) }
}
