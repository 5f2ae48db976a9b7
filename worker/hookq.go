package worker

import (
	"strings"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
)

// hookFacts are the facts of a landing whose commit a hook refused.
func hookFacts(r *run, e ending.Ending, hr *git.HookRefused, p task.HumanPolicy) ending.Facts {
	return ending.Facts{What: ending.HookRefusal, Prior: e, ID: r.t.ID, Target: r.j.Target, Branch: r.j.Branch,
		Session: r.session, Reason: strings.Join(hr.Hooks, " or "), Cause: hr.Output, Policy: p}
}
