package worker

import (
	"context"
	"errors"
	"fmt"

	"github.com/bh-tracker/bh/worker/act"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git/usertree"
	"github.com/bh-tracker/bh/worker/landing"
	"github.com/bh-tracker/bh/worker/slots"
)

// LandTask lands a task's finished work by hand (bh land): work that git
// would not land over the user's changes (the task waits on a landing
// question: it is answered "land" and landed now), or work kept on its
// branch (land: branch). Landing takes the same lock as the worker's, and
// the checks run on the tree that lands as the worker's do; ctx ends them.
// It returns nil only when the work landed, else a *ending.NotLandedError.
func LandTask(ctx context.Context, s *store.Store, id, by string, opt Options) error {
	w, err := newWorker(s, opt)
	if err != nil {
		return err
	}
	w.stop = ctx
	t, err := s.Get(id)
	if err != nil {
		return err
	}
	if p, _ := s.Get(t.Parent); t.Attempt > 0 && (p == nil || p.State != task.Closed) { // the pick lands it
		return &ending.NotLandedError{ID: id, State: t.State, Err: ending.ErrNothingToLand, Reason: fmt.Sprintf(
			"it is attempt %d of %s: pick it with bh respond %s --pick %d", t.Attempt, t.Parent, t.Parent, t.Attempt)}
	}
	q := ending.PendingLand(t)
	if q == nil && t.State == task.Open && ending.LandsSettled(t) {
		return w.landSettled(ctx, t) // approved, say: landed now, as the worker would
	}
	if q == nil {
		if t.State != task.Closed {
			return &ending.NotLandedError{ID: id, State: t.State, Reason: "it is " + string(t.State) + ", with no finished work waiting to land",
				Err: ending.ErrNothingToLand}
		}
		return w.landKept(t)
	}
	// Git is asked first, so that a refusal answers nothing and asks
	// nothing again: the landing question stays as it was.
	if err := landing.InTheWay(w.s, w.repo, t, w.target); err != nil {
		return err
	}
	if _, err := act.Answer(s, id, []task.Answer{{QuestionID: q.ID, Values: []string{ending.LandNow}}}, by, nil); err != nil {
		return fmt.Errorf("respond: %w", err)
	}
	return w.landSettled(ctx, t) // the answer lands it: as approved work would
}

// landKept lands the commit a closed task keeps on its branch.
func (w *worker) landKept(t *task.Task) error {
	head, target, err := landing.KeptWork(w.repo, t, w.target)
	if err != nil {
		return err
	}
	unlock, err := w.lockLanding()
	if err != nil {
		return err
	}
	defer unlock()
	r := &run{t: t, j: &journal{Task: t.ID, Worktree: slots.WorktreePath(w.s, w.repo, t.ID), Branch: slots.Branch(t.ID),
		Target: target}}
	if r.wt, _, err = w.repo.EnsureWorktree(r.j.Worktree, r.j.Branch, head, w.s.Root); err != nil {
		return err
	}
	if r.j.Base, err = r.wt.Base(target); err != nil {
		return err
	}
	if err := w.rebased(r)(landing.CatchUp(w.repo, r.wt, r.j.Target, r.j.Base)); err != nil {
		return err
	}
	if head, err = w.repo.BranchTip(r.j.Branch); err != nil {
		return err
	}
	if err := w.checkKept(r); err != nil {
		return err
	}
	if err := usertree.Of(w.repo).Land(target, head, w.s.RelPath(t.ID)); err != nil {
		return err
	}
	if _, err := w.s.Update(t.ID, func(t *task.Task) error {
		t.Record(w.now(), task.Event{Kind: task.EventCommit, By: claims.HandWorker, Commit: head, Text: "landed on " + target})
		return nil
	}); err != nil {
		return err
	}
	return w.pool.Drop(w.s, w.repo, t.ID, r.j.Worktree, r.j.Branch)
}

// checkKept runs the checks of a task closed with its work on its branch
// on the tree bh land is about to land, and records them in its history;
// a *ending.NotLandedError when one failed. A human who answered the checks
// question since they last ran has decided (keep on branch says bh land
// lands it): none runs.
func (w *worker) checkKept(r *run) error {
	checks := w.s.Config.ChecksFor(r.t)
	if len(checks) == 0 || ending.ChecksAnswered(r.t) {
		return nil
	}
	evs, err := w.checker(r).Check(w.stopping(), r.t.ID, r.j.Target, checks, ending.NextRound(r.t), nil)
	if err != nil {
		return err
	}
	if _, err := w.s.Update(r.t.ID, func(t *task.Task) error {
		for _, ev := range evs {
			t.Record(w.now(), ev)
		}
		return nil
	}); err != nil {
		return err
	}
	if n := len(evs); n > 0 && evs[n-1].ExitCode != 0 {
		ev := evs[n-1]
		return &ending.NotLandedError{ID: r.t.ID, State: r.t.State, Reason: fmt.Sprintf("check %s %s: %s",
			ev.Command, ending.Failure(ev), ev.Output)}
	}
	return nil
}

// landSettled lands at once the work of t, open with a human's answer
// that lands it (bh land right after bh respond --yes): claimed as a
// worker would, and ended by decided without running the agent.
func (w *worker) landSettled(ctx context.Context, t *task.Task) error {
	t, err := claims.Claim(w.s, t.ID, w.lease(), ending.Settled)
	var nr *claims.NotReadyError
	if errors.As(err, &nr) {
		return &ending.NotLandedError{ID: nr.ID, State: nr.State, Reason: "a running worker took it up first, and lands it"}
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
	return &ending.NotLandedError{ID: t.ID, State: t.State, Reason: lastNote(t)}
}

// landUnblocked answers "land" for each task whose landing git refused
// over the user's uncommitted changes, once they are gone (committed,
// stashed, undone): the task is ready again and the next round lands its
// finished work without running the agent, human: false or not.
func (w *worker) landUnblocked() {
	for _, t := range landing.Unblocked(w.s, w.repo, w.target) {
		q := ending.PendingLand(t)
		if _, err := act.Answer(w.s, t.ID, []task.Answer{{QuestionID: q.ID, Values: []string{ending.LandNow}}},
			"bh worker", nil); err != nil {
			w.warnf("%s: land it now that nothing stands in its way: %v", t.ID, err)
		}
	}
}
