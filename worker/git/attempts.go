package git

import (
	"fmt"
	"strconv"
	"strings"
)

// AttemptRef keeps attempt k of task id (1 is the first) once the human
// picked another: its commit stays readable (bh diff --attempt) while it
// is on no branch, until PruneAttempts.
func AttemptRef(id string, k int) string {
	return "refs/bh/attempts/" + id + "/" + strconv.Itoa(k)
}

// DropBranch deletes one of bh's branches (bh/<id>); one that is missing
// is fine. The user's branches are never deleted here.
func (r *Repo) DropBranch(branch string) error {
	if !strings.HasPrefix(branch, "bh/") {
		return fmt.Errorf("branch %s: bh only deletes its own bh/ branches", branch)
	}
	return r.deleteBranch(branch)
}

// PruneAttempts deletes the kept attempts of task id.
func (r *Repo) PruneAttempts(id string) error {
	prefix := "refs/bh/attempts/" + id + "/"
	out, err := r.Read(nil, "for-each-ref", "--format=%(refname)", prefix)
	if err != nil {
		return fmt.Errorf("list %s: %w", prefix, err)
	}
	for _, ref := range strings.Fields(string(out)) {
		if err := r.DeleteRef(ref); err != nil {
			return err
		}
	}
	return nil
}
