package git

import "fmt"

// Landed reports whether commit is target's tip or one of its ancestors.
func (r *Repo) Landed(target, commit string) (bool, error) {
	tip, err := r.BranchTip(target)
	if err != nil || tip == "" || tip == commit {
		return tip != "" && tip == commit, err
	}
	_, err = r.Read(nil, "merge-base", "--is-ancestor", commit, tip)
	if IsExit(err, 1) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("landed on %s: %w", target, err)
	}
	return true, nil
}
