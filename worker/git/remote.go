package git

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// ErrStale is a push refused because the remote ref is not what we
// expected: another machine moved it first.
var ErrStale = errors.New("the remote ref moved")

// RemoteLockError is a push the remote refused because a lock file of its
// own was in the way: another push there under way (a race, so it is
// ErrStale, tried again), or one a crashed git left, which stays until it
// is removed.
type RemoteLockError struct {
	Remote, Ref string
	Lock        string // the lock file, as the remote names it
}

func (e *RemoteLockError) Error() string {
	on := ""
	if e.Ref != "" {
		on = " on " + e.Ref
	}
	return fmt.Sprintf("the remote %s holds a lock%s: %s", e.Remote, on, e.Lock)
}

func (e *RemoteLockError) Is(target error) bool { return target == ErrStale }

// What git says, there, of a lock file it found.
var (
	lockHeld  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`Unable to create '([^']+\.lock)': File exists`) })
	lockedRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`cannot lock ref '([^']+)'`) })
)

// RemoteError is a remote that cannot be reached or refuses us for a
// reason other than a race: the network, auth, a missing repository.
type RemoteError struct {
	Remote string
	Err    error
}

func (e *RemoteError) Error() string {
	return fmt.Sprintf("remote %s: %v", e.Remote, e.Err)
}

func (e *RemoteError) Unwrap() error { return e.Err }

// Fetch brings refspecs from remote. --prune drops bh's copies of refs the
// remote no longer has.
func (r *Repo) Fetch(remote string, refspecs ...string) error {
	return r.fetch("--prune", remote, refspecs)
}

// FetchInto fetches refspecs from remote into their destinations only:
// with no opportunistic update of the remote-tracking branches, which a
// sync in another goroutine may be fetching at the same time.
func (r *Repo) FetchInto(remote string, refspecs ...string) error {
	return r.fetch("--refmap=", remote, refspecs)
}

func (r *Repo) fetch(opt, remote string, refspecs []string) error {
	if _, err := r.Write(nil, append([]string{"fetch", "-q", "--no-write-fetch-head", opt, remote}, refspecs...)...); err != nil {
		return &RemoteError{remote, err}
	}
	return nil
}

// PushCAS sets ref on remote to commit ("" deletes it) only if it is
// still expect there ("" meaning absent): git's compare-and-swap push,
// atomic on the remote. ErrStale says another push won.
func (r *Repo) PushCAS(remote, ref, commit, expect string) error {
	_, err := r.Write(nil, "push", "--porcelain", "--force-with-lease="+ref+":"+expect, remote, commit+":"+ref)
	return pushError(remote, err)
}

// PushBranch pushes a branch, never forcing it: a remote that moved is
// ErrStale, for the caller to integrate and try again.
func (r *Repo) PushBranch(remote, branch string) error {
	_, err := r.Write(nil, "push", "--porcelain", remote, "refs/heads/"+branch+":refs/heads/"+branch)
	return pushError(remote, err)
}

// PushRefs pushes bh's own refs (parked work, sessions) as they are here,
// forced: each belongs to the machine that holds the task's claim.
func (r *Repo) PushRefs(remote string, refs ...string) error {
	if len(refs) == 0 {
		return nil
	}
	args := []string{"push", "--porcelain", remote}
	for _, ref := range refs {
		args = append(args, "+"+ref+":"+ref)
	}
	_, err := r.Write(nil, args...)
	return pushError(remote, err)
}

func pushError(remote string, err error) error {
	if err == nil {
		return nil
	}
	if ge, ok := errors.AsType[*gitError](err); ok {
		out := ge.Stdout + ge.Stderr
		if m := lockHeld().FindStringSubmatch(out); m != nil {
			ref := ""
			if r := lockedRef().FindStringSubmatch(out); r != nil {
				ref = r[1]
			}
			return fmt.Errorf("push to %s: %w", remote, &RemoteLockError{Remote: remote, Ref: ref, Lock: filepath.Clean(m[1])})
		}
		// --porcelain prints "!\t<src>:<dst>\t[rejected] (stale info)" or
		// "(fetch first)" / "(non-fast-forward)" for a ref that moved; the
		// remote's own ref lock says the same when two pushes meet there.
		for _, why := range []string{"stale info", "fetch first", "non-fast-forward", "[rejected]",
			"cannot lock ref", "reference already exists", "but expected"} {
			if strings.Contains(out, why) {
				return fmt.Errorf("push to %s: %w", remote, ErrStale)
			}
		}
	}
	return &RemoteError{remote, err}
}

// RemoteURL is the URL of remote, "" when no such remote is configured.
func (r *Repo) RemoteURL(remote string) string {
	out, err := r.Read(nil, "remote", "get-url", remote)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// Refs lists the refs under prefix (refs/bh/claims/) with their commits.
func (r *Repo) Refs(prefix string) (map[string]string, error) {
	out, err := r.Read(nil, "for-each-ref", "--format=%(objectname) %(refname)", prefix)
	if err != nil {
		return nil, err
	}
	refs := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if oid, name, ok := strings.Cut(line, " "); ok {
			refs[name] = oid
		}
	}
	return refs, nil
}

// RemoteTip is where the last fetch saw remote's branch, "" if nowhere.
func (r *Repo) RemoteTip(remote, branch string) (string, error) {
	return r.refTip("refs/remotes/" + remote + "/" + branch)
}

// Contains reports whether commit is tip or one of its ancestors.
func (r *Repo) Contains(tip, commit string) (bool, error) {
	if tip == commit {
		return true, nil
	}
	_, err := r.Read(nil, "merge-base", "--is-ancestor", commit, tip)
	if IsExit(err, 1) {
		return false, nil
	}
	return err == nil, err
}
