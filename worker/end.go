package worker

import (
	"fmt"

	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/journal"
)

// end carries out an ending, a small state machine: each step journals
// its ending first, then handles the work in the worktree (kept,
// discarded or landed), then the task records it, then the run's
// leftovers go and the notification and report follow. A step that
// meets what changes the ending (a landing refused, a human who took the
// task back) returns the next ending instead of carrying it out itself,
// so one ending is one pass through this loop, read top to bottom. Each
// step can run again after a crash (see recoverTask).
func (w *worker) end(r *run, e ending.Ending) error {
	for {
		next, err := w.endStep(r, e)
		if next == nil || err != nil {
			return err
		}
		e = *next
	}
}

// endStep carries out one ending; next, when it is not final.
func (w *worker) endStep(r *run, e ending.Ending) (next *ending.Ending, err error) {
	r.j.Ending = &e
	if err := journal.Save(w.s, r.j); err != nil {
		return nil, fmt.Errorf("%s: %w", r.t.ID, err)
	}
	switch e.Fate {
	case ending.LandWork:
		return w.land(r, e)
	case ending.KeepWork:
		err = w.keep(r, &e)
	case ending.DiscardWork:
		err = w.discard(r, &e)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.t.ID, err) // still in progress: recovery carries the ending out
	}
	return w.close(r, &e, nil)
}
