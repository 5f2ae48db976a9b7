package landing

import (
	"cmp"
	"sync"

	"github.com/bh-tracker/bh/worker/git"
)

// Home is the branch a worker lands on when neither the task nor the
// config names one: the branch checked out when the worker started. A
// branch the user checks out later is theirs to work on, not a new target:
// the task claimed before the switch lands where it was claimed for, and
// so does the next, and the worker says so once per switch. (Following the
// checkout, as bh once did, split one queue over two branches without a
// word, and left the first one's task files untracked in the way of git
// checkout back.)
type Home struct {
	Branch string // "" (bh land, a worker started detached): the branch checked out at each claim

	mu   sync.Mutex
	told string // "at " and the checkout last seen
}

// Of is h's branch ("" when it has none); warnf hears once of each other
// branch the user checks out meanwhile.
func (h *Home) Of(r *git.Repo, warnf func(format string, args ...any)) string {
	if h.Branch == "" {
		return ""
	}
	cur, err := r.CurrentBranch()
	if err != nil {
		return h.Branch
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if at := "at " + cur; cur != h.Branch && at != h.told { // "at ": a detached HEAD is told of too
		warnf("you checked out %s: this worker goes on landing on %s, the branch it started on "+
			"(stop it and start it on %s to land there)", cmp.Or(cur, "a detached HEAD"), h.Branch, cmp.Or(cur, "a branch"))
	}
	h.told = "at " + cur
	return h.Branch
}
