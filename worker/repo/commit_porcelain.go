package repo

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
)

// commitPorcelain is Commit through `git add` and `git commit --only`, for
// repositories where a commit is more than objects and a ref: hooks,
// signing, unusual settings. Git then refreshes the whole index, which
// costs a scan of the tree.
func (r *Repo) commitPorcelain(paths []string, changes map[string]treeChange, message string) (string, error) {
	saved, err := r.indexEntries(paths)
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	tree, err := r.headTree()
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	// git refuses a pathspec that names nothing it knows: a path is
	// committed if the index has it once staged, or HEAD has it. A file
	// turned directory is left to the files in it, which replace it: git
	// commit would take the directory for a submodule.
	var commit []string
	for _, p := range paths {
		if c := changes[p]; !c.Delete || inTree(tree, p) && !r.isDir(p) {
			commit = append(commit, p)
		}
	}
	if len(commit) == 0 {
		return "", fmt.Errorf("commit: %w", ErrNothingToCommit)
	}
	// Staged as for the plumbing, which git add gets wrong for a file
	// turned directory; commit --only then takes them from the tree again.
	if err := r.stage(changes); err != nil {
		return "", r.commitFailed(saved, paths, err)
	}
	list, err := os.CreateTemp("", "bh-commit-paths-")
	if err != nil {
		return "", r.commitFailed(saved, paths, err)
	}
	defer os.Remove(list.Name())
	_, err = list.Write(nulJoin(commit))
	if cerr := list.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", r.commitFailed(saved, paths, err)
	}
	// --cleanup=whitespace keeps lines starting with '#': a task title may.
	// maintenance.auto=false: no task waits for git's housekeeping.
	if _, err := r.git([]byte(message), "-c", "maintenance.auto=false", "commit", "-q", "--only",
		"--cleanup=whitespace", "-F", "-", "--pathspec-from-file="+list.Name(), "--pathspec-file-nul"); err != nil {
		return "", r.commitFailed(saved, paths, err)
	}
	hash, err := r.Head()
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	return hash, nil
}

// indexEntries returns the index lines (`ls-files -s -z` form) for paths.
func (r *Repo) indexEntries(paths []string) (map[string]string, error) {
	entries := map[string]string{}
	for _, batch := range batches(paths) {
		out, err := r.read(nil, append([]string{"ls-files", "-s", "-z", "--"}, batch...)...)
		if err != nil {
			return nil, fmt.Errorf("read index: %w", err)
		}
		for _, line := range splitNul(out) {
			if _, p, ok := strings.Cut(line, "\t"); ok {
				entries[p] += line + "\x00"
			}
		}
	}
	return entries, nil
}

// commitFailed puts the index entries of paths back as they were before
// Commit staged them, so a failed commit leaves the user's index untouched,
// and explains the failure.
func (r *Repo) commitFailed(saved map[string]string, paths []string, cause error) error {
	var info bytes.Buffer
	for _, p := range paths {
		fmt.Fprintf(&info, "0 %s\t%s\x00", zeroHash, p)
	}
	for _, lines := range saved {
		info.WriteString(lines)
	}
	restoreErr := error(nil)
	if _, err := r.git(info.Bytes(), "update-index", "-z", "--index-info"); err != nil {
		restoreErr = fmt.Errorf("restore index: %w", err)
	}
	return errors.Join(fmt.Errorf("commit: %w", r.explain(cause)), restoreErr)
}

func (r *Repo) isDir(p string) bool {
	fi, err := r.lstat(p)
	return err == nil && fi != nil && fi.IsDir()
}
