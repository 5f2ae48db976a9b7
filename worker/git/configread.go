package git

import "strings"

// configMatching is the repository's git config values whose keys match
// pattern (git's lower-case spelling of them), read in one git process:
// the last of each, as git config --get says, spaces trimmed.
func (r *Repo) configMatching(pattern string) map[string]string {
	out, _ := r.Read(nil, "config", "-z", "--get-regexp", pattern) // none: exit 1, no output
	v := map[string]string{}
	for _, rec := range SplitNul(out) {
		key, val, _ := strings.Cut(rec, "\n")
		v[key] = strings.TrimSpace(val)
	}
	return v
}
