package doctor

import (
	"fmt"
	"path/filepath"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/claims"
)

// checkRunning reports a task a live worker of this machine runs whose
// worktree is gone (git worktree remove --force on bh's worktrees): the
// run cannot end well there, and the task would stay in progress for good.
// The worker, stopped and started again, recovers it: its process gone,
// the task is reopened and runs anew.
func (d *doctor) checkRunning() error {
	list, err := d.repo.LinkedWorktrees()
	if err != nil {
		return err
	}
	has := map[string]bool{}
	for _, e := range list {
		if !e.Prunable {
			has[filepath.Base(e.Path)], has[e.Holder] = true, true
		}
	}
	found := false
	for _, t := range d.list {
		if t.State != task.InProgress || t.Lease == nil || has[t.ID] {
			continue
		}
		l := *t.Lease
		if l.Worker == claims.HandWorker || l.PID == 0 || l.Host != claims.Hostname() || d.Dead(t) {
			continue
		}
		found = true
		d.found(Finding{Check: "running", Status: Error, Subject: t.ID,
			Message: fmt.Sprintf("in progress under the worker pid %d, but its worktree is gone (git worktree remove --force?)", l.PID),
			Fix:     fmt.Sprintf("stop that worker (Ctrl-C twice, or kill %d) and start it again: the task is reopened and runs anew", l.PID)}, nil)
	}
	if !found {
		d.ok("running", "every task a worker runs here has its worktree")
	}
	return nil
}
