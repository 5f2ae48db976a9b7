package git

import "strings"

// OnBranch reports whether a branch or tag holds commit: whether deleting
// bh's last ref to it could lose it to git gc.
func (r *Repo) OnBranch(commit string) (bool, error) {
	out, err := r.Read(nil, "for-each-ref", "--count=1", "--contains", commit, "--format=%(refname)",
		"refs/heads/", "refs/tags/")
	return strings.TrimSpace(string(out)) != "", err
}
