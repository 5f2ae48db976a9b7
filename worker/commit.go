package worker

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/notify"
)

// commit closes the task and commits the work in the tree since the run's
// baseline together with the task file. record adds what led to it.
func (w *worker) commit(r *run, note string, record func(t *task.Task, at time.Time)) error {
	id := r.t.ID
	paths, err := w.repo.Changed(r.base)
	if err != nil {
		return fmt.Errorf("%s: changes: %w", id, err)
	}
	var before task.Task
	t, err := w.finish(r, func(t *task.Task, at time.Time) error {
		before = *t // appends below leave its slices as they were
		record(t, at)
		if err := t.SetState(task.Closed, at, w.opt.Name, note); err != nil {
			return err
		}
		t.Lease, t.SessionID = nil, r.session
		// The commit's own hash cannot be inside the commit: git log
		// --grep "bh-task: <id>" finds it.
		t.Record(at, task.Event{Kind: task.EventCommit, By: w.opt.Name, Text: strings.Join(paths, ", ")})
		return nil
	})
	if errors.Is(err, errNotOurs) {
		return w.lost(r, "", nil)
	}
	if err != nil {
		return w.salvage(r, paths, err)
	}
	hash, err := w.repo.Commit(append(paths, w.s.RelPath(id)), commitMessage(t))
	if err != nil {
		// Back to the running task, then fail it with the work kept aside.
		if perr := w.s.Put(&before); perr != nil {
			return fmt.Errorf("%s: commit: %w (and restoring the task: %v)", id, err, perr)
		}
		return w.agentError(r, fmt.Errorf("commit failed: %w", err), "")
	}
	removeBaseline(w.s, id)
	w.notify(notify.EventTaskCompleted, t)
	w.finished(r, Event{Outcome: Completed, Summary: t.Summary, Commit: hash, Paths: paths})
	return nil
}

func commitMessage(t *task.Task) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n\n", t.ID, t.Title)
	if s := strings.TrimSpace(t.Summary); s != "" {
		b.WriteString(s + "\n\n")
	}
	fmt.Fprintf(&b, "bh-task: %s\n", t.ID)
	return b.String()
}
