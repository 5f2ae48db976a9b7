package usertree

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/bh-tracker/bh/worker/git"
)

// blobAt is the object p names in commit; "" when commit has no p.
func (r *Tree) blobAt(commit, p string) (string, error) {
	out, err := r.Read(nil, "ls-tree", "-z", commit, "--", p)
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
func (r *Tree) removeOwnCopies(dir, tip, commit string, paths []string) bool {
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
func (r *Tree) ownCopy(dir, tip, commit, p string) bool {
	want, err := r.blobAt(commit, p)
	if err != nil || want == "" {
		return false
	}
	if in, err := r.blobAt(tip, p); err != nil || in != "" {
		return false
	}
	if out, err := r.Run(dir, git.Env("LC_ALL=C"), nil, "--no-optional-locks", "ls-files", "-z", "--", p); err != nil || len(out) > 0 {
		return false
	}
	out, err := r.Run(dir, git.Env("LC_ALL=C"), nil, "hash-object", "--", p)
	return err == nil && strings.TrimSpace(string(out)) == want
}
