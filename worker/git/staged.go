package git

// StagedOutside reports whether the user's index holds staged changes
// outside dir (bh's store): bh init then commits nothing of its own, so
// that the user's next commit is theirs alone and nothing of theirs is
// committed under bh's name.
func (r *Repo) StagedOutside(dir string) (bool, error) {
	_, err := r.read(nil, "diff", "--cached", "--quiet", "--", ".", ":(exclude)"+dir)
	if isExit(err, 1) {
		return true, nil
	}
	return false, err
}
