package git

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// stageTaskFile stages taskPath in the index of the tree at dir at the
// blob commit has, so that bh's own uncommitted copy of the task file
// (untracked, or modified to the very bytes the commit holds) never stops
// the fast-forward: git keeps an index entry that already equals the new
// commit's. A tree without the file needs nothing: the merge writes it.
// It returns a function putting the entry back as it was.
func (r *Repo) stageTaskFile(dir, commit, taskPath string) (undo func() error, err error) {
	undo = func() error { return nil }
	if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(taskPath))); taskPath == "" || err != nil {
		return undo, nil
	}
	tree, err := r.commitTree(commit)
	if err != nil {
		return nil, err
	}
	e, ok := treeFile(tree, taskPath)
	if !ok {
		return undo, nil
	}
	saved, err := r.indexEntries(dir, taskPath)
	if err != nil {
		return nil, err
	}
	want := fmt.Sprintf("%06o %s 0\t%s", uint32(e.Mode), e.Hash, taskPath)
	if len(saved) == 1 && saved[0] == want {
		return undo, nil
	}
	if err := r.setIndexEntries(dir, taskPath, []string{want}); err != nil {
		return nil, fmt.Errorf("stage %s: %w", taskPath, err)
	}
	return func() error { return r.setIndexEntries(dir, taskPath, saved) }, nil
}

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

// setIndexEntries replaces p's index entries with entries: the mode-0 line
// drops every stage first, as update-index wants for higher stages.
func (r *Repo) setIndexEntries(dir, p string, entries []string) error {
	var in bytes.Buffer
	fmt.Fprintf(&in, "0 %s\t%s\x00", strings.Repeat("0", 40), p)
	for _, e := range entries {
		in.WriteString(e + "\x00")
	}
	_, err := r.runGit(dir, gitEnv(), in.Bytes(), "update-index", "-z", "--index-info")
	return err
}
