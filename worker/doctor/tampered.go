package doctor

import (
	"strings"

	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/slots"
)

// tampered reports a worktree of bh's whose git files an agent rewrote
// (git.Linked.Tampered) to make bh's git, outside its sandbox, run its
// programs: the worker rewrites them before its next git command there
// and warns; doctor names it, and --fix rebuilds it: a free pool slot is
// removed (the pool adds a fresh one when it needs one), a held slot or a
// task's own worktree gets bh's files back, its task's work kept.
func (d *doctor) tampered(check string, e git.Linked) bool {
	if len(e.Tampered) == 0 {
		return false
	}
	f := Finding{Check: check, Status: Error, Subject: e.Path,
		Message: "the git files of " + e.Path + " are not bh's (an agent's attempt to run its programs through bh's git): " +
			strings.Join(e.Tampered, "; "),
		Fix: "rewrite them as bh's (the task's work stays)"}
	free := e.Holder == "" && slots.In(d.s, d.repo, e.Path)
	if free {
		f.Fix = "remove the slot (the pool adds a fresh one)"
	}
	d.guarded(f, func() error {
		if err := d.repo.RepairWorktree(e.Path); err != nil || !free {
			return err
		}
		return d.repo.RemoveWorktree(e.Path, "")
	})
	return true
}
