package doctor

import (
	"fmt"
	"path/filepath"

	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/slots"
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
	dir := slots.WorktreeDir(d.s, d.repo.CommonDir())
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	found := false
	for _, e := range list {
		if !slots.In(d.s, d.repo, e.Path) && d.worktreeFinding(e, dir) { // a slot is checkPool's
			found = true
		}
	}
	if !found {
		d.ok("worktrees", "no worktree left over")
	}
	return nil
}

// worktreeFinding reports a worktree (not a pool slot) of bh's out of
// order, and whether it was; dir is bh's worktree folder.
func (d *doctor) worktreeFinding(e git.Linked, dir string) bool {
	id := filepath.Base(e.Path)
	if filepath.Base(filepath.Dir(e.Path)) == "pool" && e.Holder != "" {
		id = e.Holder // a slot of an older pool folder
	}
	if (filepath.Dir(e.Path) == dir || e.Branch == slots.Branch(id)) && d.tampered("worktrees", e) {
		return true // bh's (the user's own are theirs)
	}
	f := Finding{Check: "worktrees", Status: Warn, Subject: e.Path}
	stale, why := d.closedOrMissing(id)
	switch {
	case filepath.Dir(e.Path) != dir && (e.Branch != slots.Branch(id) || e.Prunable):
		return false // the user's own; or gone, which the worker prunes
	case filepath.Dir(e.Path) != dir && !stale:
		d.movedWorktree(f, e, filepath.Join(dir, id))
	case e.Prunable && filepath.Dir(e.Path) == dir:
		f.Message = "the worktree of " + id + " is registered, but its directory is gone"
		f.Fix = "prune its registration (git worktree prune)"
		d.guarded(f, func() error { return d.repo.RemoveWorktree(e.Path, "") })
	case stale:
		d.staleWorktree(f, e, id, why)
	default:
		return false
	}
	return true
}

func (d *doctor) staleWorktree(f Finding, e git.Linked, id, why string) {
	f.Message = "the worktree of " + id + " is left, and " + why
	wt, err := d.repo.OpenWorktree(e.Path, e.Branch)
	parked, perr := d.repo.Ref(git.ParkRef(id))
	unsaved := true
	if err == nil && perr == nil && wt != nil {
		unsaved, err = wt.Unsaved(parked)
	}
	if err != nil || perr != nil {
		f.Status, f.Message = Error, f.Message+fmt.Sprintf(": its status cannot be read: %v", firstErr(err, perr))
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
	switch {
	case e.Branch != "" && d.merged(e.Branch) && parked != "":
		// its work is uncommitted, saved under the parked ref (an approved
		// gate closed by hand): not on HEAD, whatever the branch holds
		branch = e.Branch
		f.Fix += " and its branch " + branch + " (its work stays in " + git.ParkRef(id) + ": see the parked finding)"
	case e.Branch != "" && d.merged(e.Branch):
		branch = e.Branch
		f.Fix += " and its branch " + branch + " (HEAD holds its commits)"
	case e.Branch != "":
		f.Fix += "; its branch " + e.Branch + " stays: it holds commits HEAD does not"
	}
	d.guarded(f, func() error { return d.repo.RemoveWorktree(e.Path, branch) })
}

// movedWorktree is a task's worktree registered outside bh's worktree
// folder, made before HOME, XDG_STATE_HOME or worktree.dir changed. The
// worker goes on using it where it is (see WorktreePath); the fix moves it
// where bh now keeps worktrees, changes and all.
func (d *doctor) movedWorktree(f Finding, e git.Linked, to string) {
	f.Message = fmt.Sprintf("the worktree of %s is registered outside bh's worktree folder %s (HOME, XDG_STATE_HOME or worktree.dir changed since it was made)",
		filepath.Base(to), filepath.Dir(to))
	f.Fix = "move it there (git worktree move " + e.Path + " " + to + ")"
	d.guarded(f, func() error { return d.repo.MoveWorktree(e.Path, to) })
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

// checkHalfMade finds the worktree registrations a killed git worktree add
// left half made (see repairHalfMade): while one is there, git fetch and
// git gc fail in the whole repository, so they are named before the remote
// is blamed.
func (d *doctor) checkHalfMade() error {
	admins, err := slots.HalfMade(d.s, d.repo)
	if err != nil {
		return err
	}
	for _, a := range admins {
		f := Finding{Check: "worktrees", Status: Error, Subject: a,
			Message: "a worktree registration left half made by a killed git worktree add: git fetch and git gc fail while it is there",
			Fix:     "remove it (it holds nothing)"}
		d.guarded(f, func() error { return d.repo.RemoveHalfMade(a) })
	}
	return nil
}
