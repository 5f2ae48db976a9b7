package doctor

import (
	"cmp"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/slots"
)

// refKinds are bh's per-task refs that travel to the shared remote.
var refKinds = []struct{ what, prefix string }{
	{"parked work", "refs/bh/parked/"},
	{"session copy", "refs/bh/sessions/"},
}

// checkParked finds parked work and session copies (here, and on the
// remote as last fetched) of tasks that are closed or gone, and tasks
// waiting on a human whose parked work is nowhere.
func (d *doctor) checkParked() error {
	found := false
	for _, k := range refKinds {
		local, err := d.repo.Refs(k.prefix)
		if err != nil {
			return err
		}
		copies := map[string]string{}
		if d.online {
			if copies, err = d.repo.Refs(git.RemoteCopy(k.prefix)); err != nil {
				return err
			}
		}
		for _, id := range refIDs(k.prefix, git.RemoteCopy(k.prefix), local, copies) {
			stale, why := d.closedOrMissing(id)
			if !stale {
				continue
			}
			found = true
			d.staleRef(k.what, k.prefix+id, why, local[k.prefix+id], copies[git.RemoteCopy(k.prefix+id)])
		}
	}
	for _, t := range d.list {
		if (t.State == task.AwaitingInput || t.State == task.Blocked) && d.lostWork(t) {
			found = true
		}
	}
	if !found {
		d.ok("parked", "parked work and session copies all belong to open tasks")
	}
	return nil
}

// refIDs lists the task ids of refs under prefix, here or as copies.
func refIDs(prefix, copyPrefix string, local, copies map[string]string) []string {
	seen := map[string]bool{}
	for ref := range local {
		seen[strings.TrimPrefix(ref, prefix)] = true
	}
	for ref := range copies {
		seen[strings.TrimPrefix(ref, copyPrefix)] = true
	}
	ids := make([]string, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// staleRef reports ref (here at mine, on the remote at theirs; "" where
// absent), which nothing needs any more; the fix deletes both, but keeps
// parked work that no branch holds (see keepRef).
func (d *doctor) staleRef(what, ref, why, mine, theirs string) {
	if strings.HasPrefix(ref, git.ParkRef("")) {
		if commit := cmp.Or(mine, theirs); d.unlanded(commit) {
			d.keepRef(ref, why, mine, theirs, commit)
			return
		}
	}
	where := "here"
	switch {
	case mine != "" && theirs != "":
		where = "here and on " + d.remote
	case mine == "":
		where = "on " + d.remote
	}
	fix := "delete it"
	if theirs != "" {
		fix += " (on " + d.remote + " by compare-and-swap: only as it was read)"
	}
	d.found(Finding{Check: "parked", Status: Warn, Subject: ref,
		Message: fmt.Sprintf("%s kept %s, but %s", what, where, why), Fix: fix},
		func() error { return d.deleteParked(ref, theirs) })
}

// deleteParked deletes a parked ref here and, when the remote holds it
// (as theirs), there by compare-and-swap: only as it was read.
func (d *doctor) deleteParked(ref, theirs string) error {
	if theirs != "" {
		if err := d.repo.PushCAS(d.remote, ref, "", theirs); err != nil {
			return err
		}
		if err := d.repo.DeleteRef(git.RemoteCopy(ref)); err != nil {
			return err
		}
	}
	return d.repo.DeleteRef(ref)
}

// lostWork reports a task waiting on a human whose parked work is
// nowhere: no parked ref (here or on the remote), no worktree, though its
// last run recorded a snapshot. The snapshot's commit may still be here.
func (d *doctor) lostWork(t *task.Task) bool {
	if oid, _ := d.repo.Ref(git.ParkRef(t.ID)); oid != "" {
		return false
	}
	if oid, _ := d.repo.Ref(git.RemoteCopy(git.ParkRef(t.ID))); oid != "" {
		return false // another clone's: it comes over with the claim
	}
	if _, err := os.Stat(slots.WorktreePath(d.s, d.repo, t.ID)); err == nil {
		return false
	}
	commit := lastSnapshot(t)
	if commit == "" {
		return false // nothing was changed: nothing to lose
	}
	f := Finding{Check: "parked", Status: Error, Subject: t.ID,
		Message: fmt.Sprintf("%s, but its parked work is gone: no %s, no worktree", t.State, git.ParkRef(t.ID))}
	if _, err := d.repo.Parent(commit); err == nil {
		f.Status, f.Fix = Warn, "restore "+git.ParkRef(t.ID)+" from "+commit[:10]+", the snapshot its history records"
		d.found(f, func() error { return d.repo.SetRef(git.ParkRef(t.ID), commit, "bh doctor: restore") })
		return true
	}
	f.Message += ", nor the snapshot its history records (" + commit[:10] + ")"
	f.Fix = "answer it anyway: the agent resumes its session without those changes (bh show " + t.ID +
		" names the files); or bh reopen it to start over"
	d.found(f, nil)
	return true
}

// lastSnapshot is the commit the task's last run parked, "" when that run
// parked nothing.
func lastSnapshot(t *task.Task) string {
	for i := len(t.History) - 1; i >= 0; i-- {
		switch e := t.History[i]; e.Kind {
		case task.EventParked:
			return e.Commit
		case task.EventRunFinished:
			return ""
		}
	}
	return ""
}
