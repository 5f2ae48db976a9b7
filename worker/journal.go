package worker

import "github.com/bh-tracker/bh/worker/journal"

// started writes the agent's process group down before anything else, so
// that a restarted worker can stop an agent its dead predecessor left.
func (w *worker) started(r *run) func(int) {
	return func(pgid int) {
		r.j.PGID = pgid
		if err := journal.Save(w.s, r.j); err != nil {
			w.warnf("%s: %v", r.t.ID, err)
		}
	}
}
