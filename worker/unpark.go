package worker

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/notify"
	"github.com/bh-tracker/bh/worker/repo"
)

// unpark restores the task's parked work, if any, into the working tree.
func (w *worker) unpark(t *task.Task) (commit string, paths []string, err error) {
	ref := ParkRef(t.ID)
	info, err := w.repo.Parked(ref)
	if err != nil || info == nil {
		return "", nil, err
	}
	paths, err = w.repo.Unpark(ref)
	if err != nil {
		return "", nil, err
	}
	return info.Commit, paths, nil
}

// conflict handles parked work that no longer applies to the tree: nothing
// runs, and the task waits for a human with the files named.
func (w *worker) conflict(r *run, ce *repo.ConflictError) error {
	removeBaseline(w.s, r.t.ID)
	ref := ParkRef(r.t.ID)
	q := fmt.Sprintf("The partial work parked for %s conflicts with the working tree in %s. "+
		"Commit, stash or revert your changes to those files (see the parked work with: bh diff %s), "+
		"or drop it with: git update-ref -d %s; then answer to resume.",
		r.t.ID, strings.Join(ce.Paths, ", "), r.t.ID, ref)
	qs := []task.Question{{Question: q, Type: task.FreeformQuestion}}
	p := w.policy(r.t)
	if !p.Allowed {
		r.session = r.t.SessionID
		return w.noHuman(r, agent.Result{Summary: ce.Error()}, "", nil, qs, ce.Error())
	}
	var texts []string
	t, err := w.finish(r, func(t *task.Task, at time.Time) error {
		t.Lease = nil
		texts = ask(t, at, qs, ce.Error(), w.expiry(p, at))
		return t.SetState(task.AwaitingInput, at, w.opt.Name, "parked work conflicts: "+strings.Join(ce.Paths, ", "))
	})
	if errors.Is(err, errNotOurs) {
		return w.lost(r, "", nil)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", r.t.ID, err)
	}
	w.notify(notify.EventInputRequested, t)
	w.finished(r, Event{Outcome: Conflict, Summary: ce.Error(), Question: texts[0], Questions: texts, Paths: ce.Paths})
	return nil
}
