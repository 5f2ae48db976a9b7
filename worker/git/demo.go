package git

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
		if err := demoGit(dir, args...); err != nil {
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
	if err := demoGit(dir, append([]string{"add"}, paths...)...); err != nil {
		return err
	}
	return demoGit(dir, "commit", "-q", "-m", message)
}

// DemoLog is the demo repository's history, as git log --stat --oneline
// prints it without colour.
func DemoLog(dir string) ([]byte, error) {
	c := exec.Command("git", "-c", "color.ui=never", "log", "--stat", "--oneline")
	c.Dir = dir
	out, err := c.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("git log: %w: %s", err, strings.TrimSpace(string(out)))
	}
	return out, nil
}

func demoGit(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
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
	out, err := exec.Command("git", "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs",
		paths[0], paths[1], paths[2]).Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() > 0 && ee.ExitCode() < 128) {
		return nil, fmt.Errorf("merge: git merge-file: %w", err)
	}
	return out, nil
}
