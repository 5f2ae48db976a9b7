package worker

import (
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
)

// decided is the ending a human's answer settles without running the
// agent: an approved gate lands the work; a landing decision lands it or
// keeps it on its branch.
func (w *worker) decided(r *run) (ending.Ending, bool) {
	r.session = r.t.SessionID
	f, ok := ending.Settles(r.t)
	if !ok {
		return ending.Ending{}, false
	}
	f.Branch = r.j.Branch
	return ending.Decide(f), true
}

// hookFacts are the facts of a landing whose commit a hook refused.
func hookFacts(r *run, e ending.Ending, hr *git.HookRefused, p task.HumanPolicy) ending.Facts {
	return ending.Facts{What: ending.HookRefusal, Prior: e, ID: r.t.ID, Target: r.j.Target, Branch: r.j.Branch,
		Session: r.session, Reason: strings.Join(hr.Hooks, " or "), Cause: hr.Output, Policy: p}
}
