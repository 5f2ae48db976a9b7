package git

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// MergeText is git merge-file on three texts, with markers named for bh
// (task.TextMerge, for the merge driver of task files).
func MergeText(ours, base, theirs []byte) ([]byte, error) {
	dir, err := os.MkdirTemp("", "bh-merge-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var paths []string
	for i, b := range [][]byte{ours, base, theirs} {
		p := filepath.Join(dir, []string{"ours", "base", "theirs"}[i])
		if err := os.WriteFile(p, b, 0o600); err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	out, err := exec.Command("git", "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs",
		paths[0], paths[1], paths[2]).Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() > 0 && ee.ExitCode() < 128) {
		return nil, fmt.Errorf("merge: git merge-file: %w", err)
	}
	return out, nil
}
