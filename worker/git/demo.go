package git

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// InitDemo makes dir a git repository with one commit, with a local
// identity so commits work on a machine without one (bh demo).
func InitDemo(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	steps := [][]string{
		{"init", "-q"},
		{"config", "user.name", "bh demo"},
		{"config", "user.email", "demo@bh.invalid"},
		{"config", "commit.gpgsign", "false"},
	}
	for _, args := range steps {
		if _, err := hooklessGit(dir, args...); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# bh demo\n"), 0o644); err != nil {
		return err
	}
	return CommitDemo(dir, "initial commit", "README.md")
}

// CommitDemo commits paths of the demo repository in dir.
func CommitDemo(dir, message string, paths ...string) error {
	if _, err := hooklessGit(dir, append([]string{"add"}, paths...)...); err != nil {
		return err
	}
	_, err := hooklessGit(dir, "commit", "-q", "-m", message)
	return err
}

// DemoLog is the demo repository's history, as git log --stat --oneline
// prints it without colour.
func DemoLog(dir string) ([]byte, error) {
	return hooklessGit(dir, "-c", "color.ui=never", "log", "--stat", "--oneline")
}

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
	out, err := hooklessGit("", "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs",
		paths[0], paths[1], paths[2])
	if ge, ok := errors.AsType[*gitError](err); err != nil && !(ok && ge.Code > 0 && ge.Code < 128) {
		return nil, fmt.Errorf("merge: %w", err)
	}
	return out, nil
}
