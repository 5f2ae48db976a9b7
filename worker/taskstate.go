package worker

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

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

// checkTaskState finds the agent states and outboxes of tasks that are
// closed or gone. Being litter, not trouble, they are a note, which
// leaves the exit code be; --fix removes them.
func (d *doctor) checkTaskState() error {
	clean := true
	for _, kind := range []struct{ what, dir string }{
		{"agent state", jail.AgentStatesOf(d.s.Root, d.repo.CommonDir())},
		{"outbox", jail.OutboxesOf(d.s, d.repo.CommonDir())},
	} {
		entries, err := os.ReadDir(kind.dir)
		if err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("%s: %w", kind.what, err)
		}
		var stale []string
		for _, e := range entries {
			if gone, _ := d.closedOrMissing(e.Name()); gone {
				stale = append(stale, e.Name())
			}
		}
		if len(stale) == 0 {
			continue
		}
		clean = false
		slices.Sort(stale)
		dir := kind.dir
		d.guarded(Finding{Check: "state", Status: DoctorOK, Subject: dir,
			Message: fmt.Sprintf("%d tasks closed or deleted still have their %s here: %s", len(stale), kind.what, someOf(stale, 10)),
			Fix:     "bh doctor --fix removes them"}, func() error {
			for _, id := range stale {
				if err := os.RemoveAll(filepath.Join(dir, id)); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if clean {
		d.ok("state", "no agent state or outbox of a closed or deleted task")
	}
	return nil
}

// someOf names the first n of ids, and counts the rest.
func someOf(ids []string, n int) string {
	if len(ids) <= n {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:n], ", ") + fmt.Sprintf(" and %d more", len(ids)-n)
}
