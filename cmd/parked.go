package cmd

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// parkedRef is where the worker keeps a task's parked work (worker.ParkRef).
func parkedRef(id string) string { return "refs/bh/parked/" + id }

// parkedCommit is the commit of id's parked work, "" when there is none.
// show and status run on every glance at a task, so it reads the ref's file
// itself when the repository has the plain layout, and asks git otherwise.
func parkedCommit(root, id string) (string, error) {
	if h, ok := readRefFile(root, parkedRef(id)); ok {
		return h, nil
	}
	c := exec.Command("git", "rev-parse", "--verify", "-q", parkedRef(id)+"^{commit}")
	c.Dir = root
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 && stderr.Len() == 0 {
		return "", nil // -q: a missing ref is exit 1 and silence
	}
	if err != nil {
		return "", fmt.Errorf("look for parked work: git rev-parse: %w %s", err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// readRefFile looks the ref up as a loose file, then in packed-refs. ok is
// false when the layout is anything else (a worktree, reftable), so that
// the caller asks git.
func readRefFile(root, ref string) (hash string, ok bool) {
	gitDir := filepath.Join(root, ".git")
	if fi, err := os.Stat(gitDir); err != nil || !fi.IsDir() {
		return "", false
	}
	if _, err := os.Stat(filepath.Join(gitDir, "reftable")); err == nil {
		return "", false
	}
	if b, err := os.ReadFile(filepath.Join(gitDir, filepath.FromSlash(ref))); err == nil {
		h := strings.TrimSpace(string(b))
		return h, len(h) == 40 || len(h) == 64
	}
	f, err := os.Open(filepath.Join(gitDir, "packed-refs"))
	if errors.Is(err, os.ErrNotExist) {
		return "", true
	}
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if h, name, found := strings.Cut(sc.Text(), " "); found && name == ref {
			return h, true
		}
	}
	return "", sc.Err() == nil
}
