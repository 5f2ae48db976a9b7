package worker

import (
	"os"
	"path/filepath"

	"github.com/bh-tracker/bh/worker/jail"
)

// A task's agent state and its outbox (worker/jail) live in
// bh's state dir, a folder each, and serve only its runs and takeovers. A
// task that closes through its run's ending drops both; bh doctor finds
// those of tasks closed some other way (bh close, another clone) or
// deleted. Nothing bh transcript or a later run needs is there: the run
// logs and bh's copies of the sessions are kept in .bh/runs, and a
// reopened task's run resumes from that copy (restoreSession).

// dropTaskState removes task id's agent state and outbox. No link in them
// is followed.
func (w *worker) dropTaskState(id string) {
	for _, dir := range []string{w.jail().Outbox(id), filepath.Join(jail.AgentStatesOf(w.s.Root, w.repo.CommonDir()), id)} {
		if err := os.RemoveAll(dir); err != nil {
			w.warnf("%s: %v", id, err)
		}
	}
}
