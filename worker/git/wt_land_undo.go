package git

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// undoHalfLanding puts back what a fast-forward wrote into the tree at dir
// before git refused to move the branch (a ref lock the user's own git
// held, a hook): git merge checks commit's files out and stages them
// first, and leaves them there when the ref update fails. The user's next
// commit would sweep them in, and the next landing would find them in its
// way. Each path commit changes from tip whose index entry and file are
// still commit's goes back to tip's; a path the user touched since, and
// skip (bh's task file, put back by its own undo), stay as they are. Only
// for a branch still at tip: one moved since has a history of its own.
func (r *Repo) undoHalfLanding(dir, tip, commit, skip string) error {
	out, err := r.read(nil, "diff-tree", "-r", "-z", "--name-only", "--no-renames", tip, commit)
	if err != nil {
		return err
	}
	for _, p := range splitNul(out) {
		if p == skip {
			continue
		}
		ours, err := r.holdsCommit(dir, commit, p)
		if err != nil {
			return err
		}
		if !ours {
			continue
		}
		args := []string{"rm", "-q", "-f", "--", p} // commit added it
		if in, _ := r.blobAt(tip, p); in != "" {
			args = []string{"checkout", tip, "--", p}
		}
		if _, err := r.runGit(dir, gitEnv(), nil, args...); err != nil {
			return err
		}
	}
	return nil
}

// holdsCommit reports whether path p stands in dir's index and file as
// commit has it (absent from both, where commit has no p).
func (r *Repo) holdsCommit(dir, commit, p string) (bool, error) {
	want, err := r.blobAt(commit, p)
	if err != nil {
		return false, err
	}
	out, err := r.runGit(dir, gitEnv("LC_ALL=C"), nil, "--no-optional-locks", "ls-files", "-s", "-z", "--", p)
	if err != nil {
		return false, err
	}
	staged := ""
	if f := strings.Fields(strings.SplitN(string(out), "\t", 2)[0]); len(f) >= 2 {
		staged = f[1]
	}
	if staged != want {
		return false, nil
	}
	if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p))); errors.Is(err, fs.ErrNotExist) {
		return want == "", nil
	} else if err != nil || want == "" {
		return false, err
	}
	out, err = r.runGit(dir, gitEnv("LC_ALL=C"), nil, "hash-object", "--", p)
	return err == nil && strings.TrimSpace(string(out)) == want, err
}

// blobAt is the object p names in commit; "" when commit has no p.
func (r *Repo) blobAt(commit, p string) (string, error) {
	out, err := r.read(nil, "ls-tree", "-z", commit, "--", p)
	if err != nil {
		return "", err
	}
	if f := strings.Fields(strings.SplitN(string(out), "\t", 2)[0]); len(f) >= 3 {
		return f[2], nil
	}
	return "", nil
}

// removeOwnCopies removes paths from the tree at dir when every one of
// them is an own copy (see ownCopy): what an attempt at landing commit
// that was cut short left, which git's merge then refuses to overwrite.
// false, and nothing removed, when any is not.
func (r *Repo) removeOwnCopies(dir, tip, commit string, paths []string) bool {
	for _, p := range paths {
		if !r.ownCopy(dir, tip, commit, p) {
			return false
		}
	}
	for _, p := range paths {
		if os.Remove(filepath.Join(dir, filepath.FromSlash(p))) != nil {
			return false
		}
	}
	return len(paths) > 0
}

// ownCopy reports whether p, in the tree at dir, is an untracked copy of
// the file commit adds (tip has none): not in the way of landing commit,
// which writes the same bytes there. Nothing of the user's is lost.
func (r *Repo) ownCopy(dir, tip, commit, p string) bool {
	want, err := r.blobAt(commit, p)
	if err != nil || want == "" {
		return false
	}
	if in, err := r.blobAt(tip, p); err != nil || in != "" {
		return false
	}
	if out, err := r.runGit(dir, gitEnv("LC_ALL=C"), nil, "--no-optional-locks", "ls-files", "-z", "--", p); err != nil || len(out) > 0 {
		return false
	}
	out, err := r.runGit(dir, gitEnv("LC_ALL=C"), nil, "hash-object", "--", p)
	return err == nil && strings.TrimSpace(string(out)) == want
}
