package doctor

import (
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/worker/git"
)

// KeptRef is where bh doctor --fix keeps the parked work of a task that
// ended without landing it: its commits are on no branch, and deleting
// bh's last ref to them would leave them to git gc.
func KeptRef(id string) string { return "refs/bh/kept/" + id }

// unlanded reports whether commit (a parked snapshot) is on no branch or
// tag here: no ref but bh's holds it. Unknown counts as unlanded.
func (d *doctor) unlanded(commit string) bool {
	if commit == "" {
		return false
	}
	on, err := d.repo.OnBranch(commit)
	return err != nil || !on
}

// keepRef is staleRef for parked work whose commits are on no branch:
// the fix moves it to KeptRef (and drops the remote's copy), never
// deleting it, and says how to get it back.
func (d *doctor) keepRef(ref, why, mine, theirs, commit string) {
	id := strings.TrimPrefix(ref, git.ParkRef(""))
	kept := KeptRef(id)
	where := "here"
	switch {
	case mine != "" && theirs != "":
		where = "here and on " + d.remote
	case mine == "":
		where = "on " + d.remote
	}
	d.found(Finding{Check: "parked", Status: Warn, Subject: ref,
		Message: fmt.Sprintf("parked work kept %s, but %s; its commit %s is on no branch", where, why, commit[:min(10, len(commit))]),
		Fix: fmt.Sprintf("keep it as %s (never deleted by bh): git cherry-pick --no-commit %s brings the changes back, "+
			"git update-ref -d %s drops them", kept, kept, kept)},
		func() error {
			if err := d.repo.SetRef(kept, commit, "bh doctor: keep the unlanded work of "+id); err != nil {
				return err
			}
			return d.deleteParked(ref, theirs)
		})
}
