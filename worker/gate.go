package worker

import (
	"github.com/bh-tracker/bh/worker/ending"
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
