package git

import "fmt"

// Landed reports whether commit is target's tip or one of its ancestors.
func (r *Repo) Landed(target, commit string) (bool, error) {
	tip, err := r.BranchTip(target)
	if err != nil || tip == "" {
		return false, err
	}
	ok, err := r.Contains(tip, commit)
	if err != nil {
		return false, fmt.Errorf("landed on %s: %w", target, err)
	}
	return ok, nil
}
