package claims

import (
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git"
)

// adopt brings, for t just claimed here, what another clone left for its
// next run: the parked work t's history names, when this clone's is not
// that one, and the session copy. The history decides, not who held the
// claim before: a claim this clone took and dropped (a worker killed
// between claiming and running) hides who ran the task last. foreign: the
// claim before was another clone's.
func (c *Remote) adopt(t *task.Task, foreign bool) {
	parked := c.adoptParked(t)
	if !foreign && !parked {
		return
	}
	ref := sessionRef(t.ID)
	c.repo.Fetch(c.remote, "+"+ref+":"+ref) // none pushed: nothing to adopt
	if t.SessionID == "" {
		return
	}
	oid, err := c.repo.Ref(ref)
	if err != nil || oid == "" {
		return
	}
	if b, err := c.repo.FileAt(oid, t.SessionID+".jsonl"); err == nil {
		c.Files.WriteSession(t.ID, t.SessionID, b)
	}
}

// adoptParked makes t's park ref the snapshot its history last recorded,
// from the remote, when this clone's differs: another clone parked the
// task since. This clone's worktree of the task, older work, goes first
// (its files would be reused as the work), then the ref moves, so that a
// kill in between leaves the adoption to do again. true: adopted.
func (c *Remote) adoptParked(t *task.Task) bool {
	want := LastParked(t)
	have, err := c.repo.Ref(git.ParkRef(t.ID))
	if want == "" || err != nil || have == want {
		return false
	}
	// This clone's worktree of the task, if any, is older than want: a
	// clone that emptied want's work since said so (LastParked is then "").
	copyRef := git.RemoteCopy("refs/bh/parked/" + t.ID)
	if got, _ := c.repo.Ref(copyRef); got != want {
		c.repo.Fetch(c.remote, "+"+git.ParkRef(t.ID)+":"+copyRef) // not there: nothing to adopt
		if got, _ = c.repo.Ref(copyRef); got != want {
			return false
		}
	}
	if err := c.Files.DropWorktree(t.ID); err != nil {
		return false // its stale files would stand for the work: keep what is here
	}
	return c.repo.SetRef(git.ParkRef(t.ID), want, "bh adopt") == nil
}

// LastParked is the snapshot t's history says holds its parked work: the
// last one parked, unless the work was emptied, committed or rolled back
// since.
func LastParked(t *task.Task) string {
	for i := len(t.History) - 1; i >= 0; i-- {
		switch e := t.History[i]; e.Kind {
		case task.EventParked:
			return e.Commit
		case task.EventCommit, task.EventRollback:
			return ""
		}
	}
	return ""
}
