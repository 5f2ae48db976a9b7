package claims

import (
	"errors"
	"maps"
	"slices"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
)

// A run that ends with its task not closed (asking, blocked, failed,
// reopened) keeps the claim on the remote until the task file with its new
// state is there too: the worker's sync pushes the branch first and
// releases the claim after (HandOff). A machine that claims reads the
// claims first and the branch after (Next), and takes no task whose file
// there waits on something this clone has not seen (behind). So no machine
// sees a claim released while the task still looks ready at the remote.

// wait keeps id's claim held until a sync has pushed its task file.
func (c *Remote) wait(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits[id] = true
}

// Waiting lists the claims kept for a task file not pushed yet.
func (c *Remote) Waiting() []string {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Sorted(maps.Keys(c.waits))
}

func (c *Remote) isWaiting(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.waits[id]
}

// PublishAll pushes what another machine needs to resume each of ids,
// before the sync that shares their files: their parked work and
// session. It returns those pushed; the others stay held.
func (c *Remote) PublishAll(s *store.Store, ids []string) []string {
	var out []string
	for _, id := range ids {
		if err := c.publish(s, id); err != nil {
			c.Warn("%s: push its parked work: %v (the claim stays held until it is pushed)", id, err)
			continue
		}
		out = append(out, id)
	}
	return out
}

// HandOff releases the claims of ids, which waited for a sync that has
// now pushed their task files (and, before it, their parked work). A
// claim taken again meanwhile is left alone.
func (c *Remote) HandOff(s *store.Store, ids []string, lease task.Lease) {
	for _, id := range ids {
		c.op.Lock()
		if c.isWaiting(id) {
			t, err := s.Get(id)
			if err == nil {
				err = c.release(id, lease, t.State == task.Closed)
			}
			if err != nil {
				c.Warn("%s: release the claim: %v", id, err)
			}
		}
		c.op.Unlock()
	}
}

// KeepWaiting renews the claims that wait on a sync that failed, so that
// no lease runs out while the task file is still here only.
func (c *Remote) KeepWaiting(ids []string, lease task.Lease) {
	for _, id := range ids {
		c.op.Lock()
		if c.isWaiting(id) {
			if err := c.Push(id, c.Mine(id), Held, lease); err != nil {
				c.Warn("%s: renew the claim: %v", id, err)
			}
		}
		c.op.Unlock()
	}
}

// remoteTip fetches the remote's branches, after the claims (see above),
// and returns where its copy of the checked-out branch is: "" for none.
func (c *Remote) remoteTip() (string, error) {
	branch, err := c.repo.CurrentBranch()
	if err != nil || branch == "" {
		return "", err
	}
	// Into bh's own copy: a sync may be fetching the remote's branches meanwhile.
	tip := git.RemoteRefs + "tip/" + branch
	if err := c.repo.FetchInto(c.remote, "+refs/heads/"+branch+":"+tip); err != nil {
		return "", err
	}
	return c.repo.Ref(tip)
}

// behind reports whether the remote's branch, at tip, holds t in a state
// this clone has not seen: parked on a question, blocked or failed on
// another machine, or taken there; or open again there after a run this
// clone never saw (answered in a third clone), whose file here, open
// since before, lacks that run's session and work. Such a task waits for
// a sync to bring its file here; it is never run afresh meanwhile.
func behind(s *store.Store, c *Remote, tip string, t *task.Task) bool {
	if tip == "" {
		return false
	}
	b, err := c.repo.FileAt(tip, s.RelPath(t.ID))
	if err != nil {
		return false // not on the remote yet: added here
	}
	there, err := task.Decode(s.RelPath(t.ID), b, t.ID)
	if err != nil {
		return true // unreadable there: wait for the sync to say why
	}
	// Seen here when its last change of state is: open here after what is
	// there (answered or reopened in this clone) is not behind either.
	for i := len(there.History) - 1; i >= 0; i-- {
		if e := there.History[i]; e.To != "" {
			return !slices.ContainsFunc(t.History, func(m task.Event) bool {
				return m.Kind == e.Kind && m.To == e.To && m.At.Equal(e.At)
			})
		}
	}
	return there.State != task.Open // no history to tell: what its state says
}

// TakeOver makes the remote claim of a dead run's task, which lease's
// worker recovers, its own: the run's end then hands it off as any.
func (c *Remote) TakeOver(id string, lease task.Lease) {
	if c == nil {
		return
	}
	err := c.Fetch()
	if err == nil {
		_, err = c.take(id, lease)
	}
	if err != nil && !errors.Is(err, ErrClaimed) {
		c.Warn("%s: take over the claim: %v", id, err)
	}
}

// AdoptOrphans makes lease's worker's the claims that a dead worker of this
// clone still holds (killed between a run's end and its hand-off): they
// wait for the next sync, as if this worker had run them. It runs first at
// start, before recovery: a worker killed over and over must still renew
// them before another machine takes their tasks with files it has not got.
func (c *Remote) AdoptOrphans(lease task.Lease) {
	if c == nil || c.Fetch() != nil {
		return // fetched again on the next claim; a lease that runs out is the fallback
	}
	refs, err := c.repo.Refs(Seen)
	if err != nil {
		return
	}
	for _, oid := range refs {
		cl, err := c.Read(oid)
		if err != nil || cl.State != Held || cl.Host != lease.Host || cl.Clone != c.clone || cl.PID == pidSelf || alive(cl.PID) {
			continue
		}
		if _, err := c.take(cl.Task, lease); err == nil {
			c.wait(cl.Task)
		}
	}
}
