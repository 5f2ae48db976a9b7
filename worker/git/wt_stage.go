package git

import (
	"bytes"
	"fmt"
	"strings"
)

// indexEntries are p's index entries in the tree at dir, as
// `git ls-files -s` prints them ("<mode> <hash> <stage>\t<path>"): none,
// one, or up to three for a conflict.
func (r *Repo) indexEntries(dir, p string) ([]string, error) {
	out, err := r.runGit(dir, gitEnv("LC_ALL=C"), nil, "--no-optional-locks", "ls-files", "-s", "-z", "--", p)
	if err != nil {
		return nil, err
	}
	var entries []string
	for _, f := range splitNul(out) {
		if _, path, _ := strings.Cut(f, "\t"); path == p {
			entries = append(entries, f)
		}
	}
	return entries, nil
}

// setIndexEntries replaces p's index entries with entries, in the index
// env names (GIT_INDEX_FILE): the mode-0 line drops every stage first, as
// update-index wants for higher stages.
func (r *Repo) setIndexEntries(dir string, env []string, p string, entries []string) error {
	var in bytes.Buffer
	fmt.Fprintf(&in, "0 %s\t%s\x00", strings.Repeat("0", 40), p)
	for _, e := range entries {
		in.WriteString(e + "\x00")
	}
	_, err := r.runGit(dir, env, in.Bytes(), "update-index", "-z", "--index-info")
	return err
}
