package worker

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/repo"
)

// checkWorktrees finds bh's worktrees (in WorktreeDir) whose directory
// vanished, or whose task is closed or gone. One is removed only when
// removing it loses nothing: its changes are all in its parked ref, and
// its branch goes only when HEAD holds its commits.
func (d *doctor) checkWorktrees() error {
	list, err := d.repo.LinkedWorktrees()
	if err != nil {
		return err
	}
	dir := WorktreeDir(d.s, d.repo.CommonDir())
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	found := false
	for _, e := range list {
		if filepath.Dir(e.Path) != dir {
			continue // the user's own
		}
		id := filepath.Base(e.Path)
		f := Finding{Check: "worktrees", Status: DoctorWarn, Subject: e.Path}
		if e.Prunable {
			found = true
			f.Message = "the worktree of " + id + " is registered, but its directory is gone"
			f.Fix = "prune its registration (git worktree prune)"
			d.guarded(f, func() error { return d.repo.RemoveWorktree(e.Path, "") })
			continue
		}
		if stale, why := d.closedOrMissing(id); stale {
			found = true
			d.staleWorktree(f, e, id, why)
		}
	}
	if !found {
		d.ok("worktrees", "no worktree left over")
	}
	return nil
}

func (d *doctor) staleWorktree(f Finding, e repo.Linked, id, why string) {
	f.Message = "the worktree of " + id + " is left, and " + why
	wt, err := d.repo.OpenWorktree(e.Path, e.Branch)
	parked, perr := d.repo.Ref(ParkRef(id))
	unsaved := true
	if err == nil && perr == nil && wt != nil {
		unsaved, err = wt.Unsaved(parked)
	}
	if err != nil || perr != nil {
		f.Status, f.Message = DoctorError, f.Message+fmt.Sprintf(": its status cannot be read: %v", firstErr(err, perr))
		d.found(f, nil)
		return
	}
	if unsaved {
		f.Message += ", but it holds changes bh never saved"
		f.Fix = "look at them (git -C " + e.Path + " status); if none is needed: git worktree remove --force " + e.Path
		d.found(f, nil)
		return
	}
	branch := ""
	f.Fix = "remove the worktree"
	if e.Branch != "" && d.merged(e.Branch) {
		branch = e.Branch
		f.Fix += " and its branch " + branch + " (HEAD holds its commits)"
	} else if e.Branch != "" {
		f.Fix += "; its branch " + e.Branch + " stays: it holds commits HEAD does not"
	}
	d.guarded(f, func() error { return d.repo.RemoveWorktree(e.Path, branch) })
}

// merged reports whether HEAD holds every commit of branch.
func (d *doctor) merged(branch string) bool {
	tip, err := d.repo.BranchTip(branch)
	head, herr := d.repo.Head()
	if err != nil || herr != nil || tip == "" || head == "" {
		return false
	}
	ahead, _, err := d.repo.Ahead(tip, head)
	return err == nil && ahead == 0
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

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
			if copies, err = d.repo.Refs(remoteRefs + strings.TrimPrefix(k.prefix, "refs/bh/")); err != nil {
				return err
			}
		}
		for _, id := range refIDs(k.prefix, local, copies) {
			stale, why := d.closedOrMissing(id)
			if !stale {
				continue
			}
			found = true
			d.staleRef(k.what, k.prefix+id, why, local[k.prefix+id], copies[remoteRefs+strings.TrimPrefix(k.prefix, "refs/bh/")+id])
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
func refIDs(prefix string, local, copies map[string]string) []string {
	seen := map[string]bool{}
	for ref := range local {
		seen[strings.TrimPrefix(ref, prefix)] = true
	}
	copyPrefix := remoteRefs + strings.TrimPrefix(prefix, "refs/bh/")
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
// absent), which nothing needs any more; the fix deletes both.
func (d *doctor) staleRef(what, ref, why, mine, theirs string) {
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
	d.found(Finding{Check: "parked", Status: DoctorWarn, Subject: ref,
		Message: fmt.Sprintf("%s kept %s, but %s", what, where, why), Fix: fix},
		func() error {
			if theirs != "" {
				if err := d.repo.PushCAS(d.remote, ref, "", theirs); err != nil {
					return err
				}
				if err := d.repo.DeleteRef(remoteRefs + strings.TrimPrefix(ref, "refs/bh/")); err != nil {
					return err
				}
			}
			return d.repo.DeleteRef(ref)
		})
}

// lostWork reports a task waiting on a human whose parked work is
// nowhere: no parked ref (here or on the remote), no worktree, though its
// last run recorded a snapshot. The snapshot's commit may still be here.
func (d *doctor) lostWork(t *task.Task) bool {
	if oid, _ := d.repo.Ref(ParkRef(t.ID)); oid != "" {
		return false
	}
	if oid, _ := d.repo.Ref(remoteRefs + "parked/" + t.ID); oid != "" {
		return false // another clone's: it comes over with the claim
	}
	if _, err := os.Stat(WorktreePath(d.s, d.repo, t.ID)); err == nil {
		return false
	}
	commit := lastSnapshot(t)
	if commit == "" {
		return false // nothing was changed: nothing to lose
	}
	f := Finding{Check: "parked", Status: DoctorError, Subject: t.ID,
		Message: fmt.Sprintf("%s, but its parked work is gone: no %s, no worktree", t.State, ParkRef(t.ID))}
	if _, err := d.repo.Parent(commit); err == nil {
		f.Status, f.Fix = DoctorWarn, "restore "+ParkRef(t.ID)+" from "+commit[:10]+", the snapshot its history records"
		d.found(f, func() error { return d.repo.SetRef(ParkRef(t.ID), commit, "bh doctor: restore") })
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
