package git

import "strings"

// StagedOutside reports whether the user's index holds staged changes
// outside dir (bh's store): bh init then commits nothing of its own, so
// that the user's next commit is theirs alone and nothing of theirs is
// committed under bh's name.
func (r *Repo) StagedOutside(dir string) (bool, error) {
	_, err := r.Read(nil, "diff", "--cached", "--quiet", "--", ".", ":(exclude)"+dir)
	if IsExit(err, 1) {
		return true, nil
	}
	return false, err
}

// MergeBase is the best common ancestor of a and b, "" when none.
func (r *Repo) MergeBase(a, b string) (string, error) {
	out, err := r.Read(nil, "merge-base", a, b)
	if IsExit(err, 1) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}
