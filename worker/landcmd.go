package worker

import (
	"context"
	"errors"
	"fmt"

	"github.com/bh-tracker/bh/task"
)

// ErrNothingToLand means a task has no finished work waiting to land.
var ErrNothingToLand = errors.New("nothing to land")

// LandTask lands a task's finished work by hand (bh land): work that git
// would not land over the user's changes (the task waits on a landing
// question: it is answered "land" and landed now), or work kept on its
// branch (land: branch). Landing takes the same lock as the worker's.
func LandTask(ctx context.Context, s *task.Store, id, by string, opt Options) error {
	w, err := newWorker(s, opt)
	if err != nil {
		return err
	}
	t, err := s.Get(id)
	if err != nil {
		return err
	}
	if q := pendingLand(t); q != nil {
		if _, err := Respond(s, id, []task.Answer{{QuestionID: q.ID, Values: []string{landNow}}}, by); err != nil {
			return err
		}
		t, err := Claim(s, id, workerLease(w.opt.Name, w.now()))
		var nr *NotReadyError
		if errors.As(err, &nr) {
			return nil // a running worker took it first: it lands it
		}
		if err != nil {
			return err
		}
		w.setActive(id, true)
		defer w.setActive(id, false)
		return w.work(ctx, t)
	}
	if t.State != task.Closed {
		return fmt.Errorf("%s is %s: %w", id, t.State, ErrNothingToLand)
	}
	return w.landKept(t)
}

// pendingLand is t's landing question while it waits on it.
func pendingLand(t *task.Task) *task.Question {
	for i := range t.Questions {
		if q := &t.Questions[i]; isLandQuestion(q) && q.Status == task.QuestionPending {
			return q
		}
	}
	return nil
}

// landKept lands the commit a closed task keeps on its branch.
func (w *worker) landKept(t *task.Task) error {
	head, err := w.repo.BranchTip(Branch(t.ID))
	if err != nil {
		return err
	}
	if head == "" {
		return fmt.Errorf("%s has no branch %s: %w", t.ID, Branch(t.ID), ErrNothingToLand)
	}
	target, err := w.target(t)
	if err != nil {
		return err
	}
	if ok, err := w.repo.Landed(target, head); err != nil || ok {
		if err == nil {
			err = fmt.Errorf("%s is already on %s: %w", Branch(t.ID), target, ErrNothingToLand)
		}
		return err
	}
	unlock, err := w.lockLanding()
	if err != nil {
		return err
	}
	defer unlock()
	r := &run{t: t, j: &journal{Task: t.ID, Worktree: WorktreePath(w.s, w.repo, t.ID), Branch: Branch(t.ID),
		Target: target}}
	if r.wt, _, err = w.repo.EnsureWorktree(r.j.Worktree, r.j.Branch, head, w.s.Root); err != nil {
		return err
	}
	if r.j.Base, err = r.wt.Base(target); err != nil {
		return err
	}
	if err := w.catchUp(r); err != nil {
		return err
	}
	if head, err = w.repo.BranchTip(r.j.Branch); err != nil {
		return err
	}
	if err := w.repo.Land(target, head, w.s.RelPath(t.ID)); err != nil {
		return err
	}
	if _, err := w.s.Update(t.ID, func(t *task.Task) error {
		t.Record(w.now(), task.Event{Kind: task.EventCommit, By: HandWorker, Commit: head, Text: "landed on " + target})
		return nil
	}); err != nil {
		return err
	}
	return w.repo.RemoveWorktree(r.j.Worktree, r.j.Branch)
}
