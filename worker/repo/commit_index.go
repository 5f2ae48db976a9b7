package repo

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// stage brings the index in line with a commit bh just made of changes:
// files are added by git (so their entries carry stat data and the next
// status need not rehash them), gone ones are dropped. Other entries, the
// user's staged work among them, are not touched.
//
// A user's git holding index.lock is waited for a little: failing here
// means undoing a commit already on the branch.
func (r *Repo) stage(changes map[string]treeChange) error {
	var add []string
	var gone bytes.Buffer // git update-index -z --index-info
	for p, c := range changes {
		if c.Delete {
			// --index-info rather than --remove: git refuses a path below a
			// symlink even to drop it
			fmt.Fprintf(&gone, "0 %s\t%s\x00", zeroHash, p)
		} else {
			add = append(add, p)
		}
	}
	sort.Strings(add) // a file before what lies below it: --replace sorts out file/directory swaps
	runs := batches(add)
	if len(runs) == 0 {
		runs = [][]string{nil}
	}
	for i, batch := range runs {
		args := []string{"update-index", "-z"}
		var stdin []byte
		if i == 0 && gone.Len() > 0 {
			args, stdin = append(args, "--index-info"), gone.Bytes()
		}
		if len(batch) > 0 {
			args = append(append(args, "--add", "--replace", "--"), batch...)
		}
		if err := r.retryLocked(func() error { _, err := r.git(stdin, args...); return err }); err != nil {
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
