package repo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// stage puts changes into the index: files are added by git, hashed again
// (so that their entries carry stat data and no later status rereads
// them), gone ones are dropped. Other entries, the user's staged work
// among them, are not touched. A file rewritten since Commit hashed it is
// staged as it is now: visible in git status, nothing lost.
//
// A user's git holding index.lock is waited for a little: failing here
// means undoing a commit already on the branch.
func (r *Repo) stage(changes map[string]treeChange) error {
	var add, gone []string
	for p, c := range changes {
		if c.Delete {
			gone = append(gone, p)
		} else {
			add = append(add, p)
		}
	}
	// Added first: with --replace, a file added where a directory was (or
	// the other way round) drops the entries in its way. --force-remove
	// rather than --remove: git refuses a path below a symlink even to drop
	// it. "./" keeps a path starting with "-" from reading as an option.
	sort.Strings(add)
	sort.Strings(gone)
	for len(add)+len(gone) > 0 {
		args := []string{"update-index", "--add", "--replace"}
		size := 0
		for len(add) > 0 && size < 64<<10 {
			args, size, add = append(args, "./"+add[0]), size+len(add[0])+3, add[1:]
		}
		if len(gone) > 0 && size < 64<<10 {
			args = append(args, "--force-remove")
		}
		for len(gone) > 0 && size < 64<<10 {
			args, size, gone = append(args, "./"+gone[0]), size+len(gone[0])+3, gone[1:]
		}
		if err := r.retryLocked(func() error { _, err := r.git(nil, args...); return err }); err != nil {
			return fmt.Errorf("update the index: %w", err)
		}
	}
	return nil
}

// retryLocked runs f again while another git process holds index.lock,
// for up to about a second.
func (r *Repo) retryLocked(f func() error) error {
	lock := filepath.Join(r.gitDir, "index.lock")
	delay := 5 * time.Millisecond
	for start := time.Now(); ; delay *= 2 {
		err := f()
		if err == nil || time.Since(start) > time.Second {
			return err
		}
		if _, serr := os.Lstat(lock); serr != nil {
			return err // not a lock held by someone else
		}
		time.Sleep(delay)
	}
}

// undoCommit moves HEAD back from commit to head ("" for an unborn branch),
// when the commit cannot be finished.
func (r *Repo) undoCommit(head, commit string) error {
	args := []string{"update-ref", "-m", "bh: undo commit", "HEAD", head, commit}
	if head == "" {
		args = []string{"update-ref", "-m", "bh: undo commit", "-d", "HEAD", commit}
	}
	if _, err := r.git(nil, args...); err != nil {
		return fmt.Errorf("and HEAD stays at %s: %w", commit, err)
	}
	return errors.New("the commit was undone")
}
