package storegit

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
)

// A running task's file changes every heartbeat (its lease and
// updatedAt), and a commit of that on the user's branch says nothing
// anyone needs: the claim (refs/bh/claims) is what other machines read,
// and the task's next real change, or its landing, carries the file along.
// So a sync commits the store only when something else changed.

// BookkeepingOnly reports whether every uncommitted change under the
// store is a task file that differs from HEAD's only in bh's bookkeeping
// (see bookkeeping); pending lists those files (repository paths).
func BookkeepingOnly(s *store.Store, r *git.Repo) (only bool, pending []string, err error) {
	changed, err := r.StoreChanges(s.Dir)
	if err != nil || len(changed) == 0 {
		return false, nil, err
	}
	head, err := r.Head()
	if err != nil || head == "" {
		return false, nil, err
	}
	for _, line := range changed {
		p, ok := bookkeepingChange(r, head, line)
		if !ok {
			return false, nil, nil
		}
		pending = append(pending, p)
	}
	return true, pending, nil
}

// bookkeepingChange reports whether line, one of git status's, is a task
// file modified in bh's bookkeeping only, and names its path.
func bookkeepingChange(r *git.Repo, head, line string) (string, bool) {
	if len(line) < 4 || line[:2] != " M" && line[:2] != "M " && line[:2] != "MM" {
		return "", false // added, removed, untracked: a change of substance
	}
	p := line[3:]
	rel, inStore := strings.CutPrefix(p, ".bh/")
	id, ok := taskFileID(rel)
	if !inStore || !ok {
		return "", false
	}
	was, err := r.FileAt(head, p)
	if err != nil {
		return "", false
	}
	now, err := os.ReadFile(filepath.Join(r.Root, filepath.FromSlash(p)))
	return p, err == nil && bookkeeping(p, id, was, now)
}

// bookkeeping reports whether two versions of a task file differ only
// in the fields bh keeps for its own running: the lease (its heartbeat
// above all) and updatedAt, which every write moves.
func bookkeeping(path, id string, was, now []byte) bool {
	a, err1 := task.Decode(path, was, id)
	b, err2 := task.Decode(path, now, id)
	if err1 != nil || err2 != nil {
		return false
	}
	a.Lease, b.Lease = nil, nil
	a.UpdatedAt = b.UpdatedAt
	ea, err1 := task.Render(a, nil)
	eb, err2 := task.Render(b, nil)
	return err1 == nil && err2 == nil && string(ea) == string(eb)
}
