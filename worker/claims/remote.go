package claims

import (
	"errors"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
)

// sessionRef is where a task's session copy travels between machines.
func sessionRef(id string) string { return "refs/bh/sessions/" + id }

// HandTTL is a hand claim's lease on the remote: the human may take long.
const HandTTL = 24 * time.Hour

// Clock is s's clock, to the second.
func Clock(s *store.Store) func() time.Time { return func() time.Time { return now(s) } }

// Files is where this clone keeps what a claim carries between machines,
// in the worker's layout.
type Files struct {
	DropWorktree func(id string) error                    // removes the task's worktree, which older work fills
	ReadSession  func(id, session string) ([]byte, error) // bh's copy of a session
	WriteSession func(id, session string, b []byte) error
}

// Next claims the first ready task that no machine holds: first on the
// remote c (the race is decided there), then in the local file; without
// c, in the local file only. It passes over the tasks skip names;
// settled is Claim's.
func Next(s *store.Store, c *Remote, lease task.Lease, skip func(string) bool, settled func(*task.Task) string) (*task.Task, error) {
	if c == nil {
		return claimLocal(s, lease, skip, settled)
	}
	tasks, _, err := s.List()
	if err != nil {
		return nil, err
	}
	ready := without(task.Ready(tasks, now(s)), skip)
	if len(ready) == 0 {
		return nil, ErrNothingReady // no round trip to the remote for nothing
	}
	if err := c.Fetch(); err != nil {
		return nil, err
	}
	tip, err := c.remoteTip() // after the claims: see handoff.go
	if err != nil {
		return nil, err
	}
	for _, cand := range ready {
		if behind(s, c, tip, cand) {
			continue
		}
		prev, err := c.take(cand.ID, lease)
		if errors.Is(err, ErrClaimed) {
			continue
		}
		if err != nil {
			return nil, err
		}
		t, err := Claim(s, cand.ID, lease, settled)
		if err != nil {
			c.release(cand.ID, lease, false)
			if _, ok := errors.AsType[*NotReadyError](err); ok {
				continue
			}
			return nil, err
		}
		c.adopt(t, prev != nil && (prev.Host != lease.Host || prev.Clone != c.clone))
		return t, nil
	}
	return nil, ErrNothingReady
}

// publish pushes what another machine needs to resume task id: its
// parked work and its session copy. Best effort: a remote out of reach
// leaves the claim held (the caller does not release it), so no one
// resumes without.
func (c *Remote) publish(s *store.Store, id string) error {
	t, err := s.Get(id)
	if err != nil {
		return err
	}
	refs := []string{}
	if oid, _ := c.repo.Ref(git.ParkRef(t.ID)); oid != "" {
		refs = append(refs, git.ParkRef(t.ID))
	}
	if t.SessionID != "" {
		if b, err := c.Files.ReadSession(t.ID, t.SessionID); err == nil {
			oid, err := c.repo.CommitFile("", t.SessionID+".jsonl", b, "bh: session of "+t.ID+"\n")
			if err != nil {
				return err
			}
			if err := c.repo.SetRef(sessionRef(t.ID), oid, "bh session"); err != nil {
				return err
			}
			refs = append(refs, sessionRef(t.ID))
		}
	}
	return c.repo.PushRefs(c.remote, refs...)
}

// Unclaim ends lease's remote claim on t as its run settles: done for a
// closed task; otherwise released by HandOff, once its file, parked work
// and session are on the remote. Nothing without a remote or a claim of ours.
func (c *Remote) Unclaim(t *task.Task, lease task.Lease) {
	if c == nil || c.Mine(t.ID) == "" {
		return
	}
	if t.State != task.Closed {
		c.wait(t.ID)
		return
	}
	if err := c.release(t.ID, lease, true); err != nil {
		c.Warn("%s: release the claim: %v", t.ID, err)
	}
}

// HeldElsewhere reports whether t, in progress under another machine's
// lease, is still held there: on a shared remote its claim decides, not
// the heartbeat in a file that travels only with syncs. lease is the
// asking worker's.
func (c *Remote) HeldElsewhere(t *task.Task, lease task.Lease) bool {
	if c == nil || t.Lease == nil || t.Lease.Host == Hostname() {
		return false
	}
	_, cl, err := c.seen(t.ID)
	return err != nil || !c.free(cl, lease)
}

// adopt brings, for t just claimed here, what another clone left for its
// next run: the parked work t's history names, when this clone's is not
// that one, and the session copy. The history decides, not the claim
// before (foreign: another clone's): one this clone took and dropped (a
// worker killed between claiming and running) hides who ran the task last.
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
