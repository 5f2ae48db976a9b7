package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// parkedRef is where the worker keeps a task's parked work (worker.ParkRef).
func parkedRef(id string) string { return "refs/bh/parked/" + id }

// parkedCommit is the commit of id's parked work, "" when there is none.
// It asks the git binary: a read of one ref, touching nothing.
func parkedCommit(root, id string) (string, error) {
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
