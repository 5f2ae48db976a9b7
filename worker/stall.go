package worker

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/journal"
)

// runEnd is what a run's goroutine hands back to the loop.
type runEnd struct {
	id  string
	err error
}

// runFailed takes trouble one run met (git, a lock, the file system for
// that task) without stopping the worker: the other runs go on. A run
// whose ending was decided keeps it journaled, in progress under this
// worker, and recovery carries it out on the next tick (recoverDead
// takes a lease of this process that no run holds for a dead run's); a
// run that never started is back to open, not claimed again before the
// tick. Either way the warning names the task and the cause.
func (w *worker) runFailed(end runEnd) {
	if end.err == nil {
		return
	}
	w.mu.Lock()
	if w.cooled == nil {
		w.cooled = map[string]bool{}
	}
	w.cooled[end.id] = true
	w.mu.Unlock()
	cause := strings.TrimPrefix(end.err.Error(), end.id+": ")
	when := "on the worker's next tick"
	if w.opt.Once || w.stopping().Err() != nil {
		when = "when the worker next starts"
	}
	msg := fmt.Sprintf("%s: not started (%s); it is claimed again %s", end.id, cause, when)
	if t, err := w.s.Get(end.id); err == nil && w.owns(t) {
		msg = fmt.Sprintf("%s: its ending waits (%s); it is retried %s", end.id, cause, when)
		if j, err := journal.Load(w.s, end.id); err == nil && j != nil && j.Ending != nil {
			j.Waiting = cause
			if err := journal.Save(w.s, j); err != nil {
				msg += fmt.Sprintf(" (and journaling it: %v)", err)
			}
		}
	}
	var le *git.LockedError
	if errors.As(end.err, &le) && le.Stale {
		msg += fmt.Sprintf("; %s is stale: bh doctor --fix removes it", w.s.Shown(le.Path))
	}
	w.report(Event{Kind: Warning, Task: end.id, Summary: msg})
}

// thaw lets the tasks runs failed on be claimed again (on the tick; a
// worker run with Once tries each at most once).
func (w *worker) thaw() {
	if w.opt.Once {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	clear(w.cooled)
}

// cooling reports whether a run failed on task id since the last tick.
func (w *worker) cooling(id string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.cooled[id]
}

// EndingWaits is why task id's decided ending could not be carried out
// yet (a git lock, say), "" when none waits.
func EndingWaits(s *store.Store, id string) string {
	j, err := journal.Load(s, id)
	if err != nil || j == nil || j.Ending == nil {
		return ""
	}
	return j.Waiting
}
