package worker

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/landing"
	"github.com/bh-tracker/bh/worker/slots"
)

// Work a task holds that has not landed ends only by landing it or by an
// explicit discard (task.MoveHolding): a human's answer that lands it
// (an approved gate, "land", "land anyway") is acted on by bh land at
// once, is not handed out as a fresh task by bh claim, and bh close
// refuses to close it away without --discard.

// settled is what a human's answer settles t with, in words, when the
// worker acts on it without running the agent (see decided); "" when
// nothing is settled.
func settled(t *task.Task) string {
	if approved(verdict(t)) {
		return "approved work"
	}
	if q := decision(t, landing.IsLandQuestion); q != nil {
		return "finished work answered " + q.Answer[0]
	}
	if q := decision(t, landing.IsCheckQuestion); q != nil && q.Answer[0] != task.OtherChoice {
		return "finished work answered " + q.Answer[0]
	}
	return ""
}

// Settled is what a human's answer settles open task t with, in words
// ("approved work"), when the worker lands or keeps it without running
// the agent; "" when nothing is settled.
func Settled(t *task.Task) string { return settled(t) }

// landsSettled reports whether t's settled answer lands its work (rather
// than keeping it on its branch).
func landsSettled(t *task.Task) bool {
	if approved(verdict(t)) {
		return true
	}
	if q := decision(t, landing.IsLandQuestion); q != nil {
		return q.Answer[0] == ending.LandNow
	}
	q := decision(t, landing.IsCheckQuestion)
	return q != nil && q.Answer[0] == ending.CheckLand
}

// Unlanded is the work t holds that has not landed, in words ("" when
// none): finished work a human settled, waiting for the worker, or work
// parked under refs/bh/parked/<id>.
func Unlanded(s *store.Store, t *task.Task) (string, error) {
	if t.State == task.Open {
		if w := settled(t); w != "" {
			return w, nil
		}
	}
	r, err := git.Open(s.Root)
	if err != nil {
		return "", err
	}
	commit, err := r.Ref(git.ParkRef(t.ID))
	if err != nil || commit == "" {
		return "", err
	}
	return fmt.Sprintf("parked work (%s)", commit[:min(10, len(commit))]), nil
}

// DiscardWork throws away the work of task id, which a human closed with
// --discard: its worktree, its branch and its parked ref. A task a worker
// runs keeps its worktree: the worker parks it when it sees the task was
// taken back, and bh doctor --fix keeps what no branch holds.
func DiscardWork(s *store.Store, id string) error {
	w, err := newWorker(s, Options{Name: "bh close"})
	if err != nil {
		return err
	}
	t, err := s.Get(id)
	if err != nil || t.State == task.InProgress {
		return err
	}
	path := slots.WorktreePath(s, w.repo, id)
	if _, err := os.Stat(path); err == nil {
		if err := w.pool.Drop(w.s, w.repo, id, path, slots.Branch(id)); err != nil {
			return err
		}
	}
	return w.repo.DeleteRef(git.ParkRef(id))
}

// landSettled lands at once the work of t, open with a human's answer
// that lands it (bh land right after bh respond --yes): claimed as a
// worker would, and ended by decided without running the agent.
func (w *worker) landSettled(ctx context.Context, t *task.Task) error {
	t, err := claims.Claim(w.s, t.ID, w.lease(), settled)
	var nr *claims.NotReadyError
	if errors.As(err, &nr) {
		return &NotLandedError{ID: nr.ID, State: nr.State, Reason: "a running worker took it up first, and lands it"}
	}
	if err != nil {
		return err
	}
	w.setActive(t.ID, true)
	err = w.work(ctx, t)
	w.setActive(t.ID, false)
	if err != nil {
		return err
	}
	if t, err = w.s.Get(t.ID); err != nil || t.State == task.Closed {
		return err
	}
	return &NotLandedError{ID: t.ID, State: t.State, Reason: lastNote(t)}
}
