package worker

import (
	"context"
	"errors"
	"fmt"

	"github.com/bh-tracker/bh/worker/act"
	"github.com/bh-tracker/bh/worker/journal"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/attempts"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git/usertree"
	"github.com/bh-tracker/bh/worker/landing"
	"github.com/bh-tracker/bh/worker/slots"
)

// NewLanding is the worker's landing for land now (act.Land, bh land):
// it lands as the worker does, under the same lock, and runs the checks on
// the tree that lands as the worker's do; the context of each call ends
// them.
func NewLanding(s *store.Store, opt Options) (act.Landing, error) {
	w, err := newWorker(s, opt)
	if err != nil {
		return nil, err
	}
	return (*landNow)(w), nil
}

// landNow is the worker as act.Landing.
type landNow worker

func (l *landNow) InTheWay(t *task.Task) error {
	return landing.InTheWay(l.s, l.repo, t, (*worker)(l).target)
}

func (l *landNow) Settled(ctx context.Context, t *task.Task) error {
	w := (*worker)(l)
	w.stop = ctx
	return w.landSettled(ctx, t)
}

func (l *landNow) Kept(ctx context.Context, t *task.Task) error {
	if err := attempts.Unpicked(l.s, t); err != nil {
		return err // its task's pick lands it
	}
	w := (*worker)(l)
	w.stop = ctx
	return w.landKept(t)
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
	r, _, err := w.keptRun(t, head, target, func(r *run) (string, error) {
		return landing.CatchUp(w.repo, r.wt, r.j.Target, r.j.Base)
	})
	if err != nil {
		return err
	}
	if head, err = w.repo.BranchTip(r.j.Branch); err != nil {
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

// keptRun is the run of t's work kept on its branch at head, that lands
// on target: in its worktree, caught up, checked there (checkKept).
func (w *worker) keptRun(t *task.Task, head, target string, catchUp func(*run) (string, error)) (*run, []task.Event, error) {
	r := &run{t: t, j: &journal.Journal{Task: t.ID, Worktree: slots.WorktreePath(w.s, w.repo, t.ID), Branch: slots.Branch(t.ID),
		Target: target}}
	var err error
	if r.wt, _, err = w.repo.EnsureWorktree(r.j.Worktree, r.j.Branch, head, w.s.Root); err != nil {
		return nil, nil, err
	}
	if r.j.Base, err = r.wt.Base(target); err != nil {
		return nil, nil, err
	}
	if err := w.rebased(r)(catchUp(r)); err != nil {
		return nil, nil, err
	}
	evs, err := w.checkKept(r)
	return r, evs, err
}

// checkKept runs and records the checks of work kept on its branch on the
// tree about to land; a *ending.NotLandedError when one failed. None runs
// once a human answered the checks question (keep on branch: bh land lands).
func (w *worker) checkKept(r *run) ([]task.Event, error) {
	checks := w.s.Config.ChecksFor(r.t)
	if len(checks) == 0 || ending.ChecksAnswered(r.t) {
		return nil, nil
	}
	evs, err := w.checker(r).Check(w.stopping(), r.t.ID, r.j.Target, checks, ending.NextRound(r.t), nil)
	if err != nil {
		return nil, err
	}
	if _, err := w.s.Update(r.t.ID, func(t *task.Task) error {
		for _, ev := range evs {
			t.Record(w.now(), ev)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if n := len(evs); n > 0 && evs[n-1].ExitCode != 0 {
		ev := evs[n-1]
		return nil, &ending.NotLandedError{ID: r.t.ID, State: r.t.State, Reason: fmt.Sprintf("check %s %s: %s",
			ev.Command, ending.Failure(ev), ev.Output)}
	}
	return evs, nil
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
