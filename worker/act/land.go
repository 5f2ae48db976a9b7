package act

import (
	"context"
	"fmt"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
)

// Landing lands finished work now, as a worker would: the door decides
// what land now means for a task, and its Landing does the landing. The
// worker's is worker.NewLanding; act does not import the worker, which
// imports act (its own answers go through Answer).
type Landing interface {
	// InTheWay is the *ending.NotLandedError that would stop t's finished
	// work from landing now (the user's files in the way), else nil.
	InTheWay(t *task.Task) error
	// Settled lands the work of t, open with an answer that lands it:
	// claimed as a worker would, and ended without running the agent.
	Settled(ctx context.Context, t *task.Task) error
	// Kept lands the commit t, closed, keeps on its branch (land: branch).
	Kept(ctx context.Context, t *task.Task) error
}

// Land lands task id's finished work now (bh land), by the human by:
// work that git would not land over the user's changes (the task waits
// on a landing question: it is answered "land" and landed), work a
// human's answer settled, or work kept on its branch. Git is asked first,
// so that a refusal answers nothing: the landing question stays as it
// was. It returns nil only when the work landed, else a
// *ending.NotLandedError or the error that stopped it.
func Land(ctx context.Context, s *store.Store, id, by string, l Landing) error {
	t, err := s.Get(id)
	if err != nil {
		return err
	}
	if q := ending.PendingLand(t); q != nil {
		if err := l.InTheWay(t); err != nil {
			return err
		}
		if _, err := Answer(s, id, []task.Answer{{QuestionID: q.ID, Values: []string{ending.LandNow}}}, by, nil); err != nil {
			return fmt.Errorf("respond: %w", err)
		}
		return l.Settled(ctx, t) // the answer lands it: as approved work would
	}
	switch {
	case t.State == task.Open && ending.LandsSettled(t):
		return l.Settled(ctx, t) // approved, say: landed now, as the worker would
	case t.State == task.Closed:
		return l.Kept(ctx, t)
	}
	return &ending.NotLandedError{ID: id, State: t.State, Reason: "it is " + string(t.State) + ", with no finished work waiting to land",
		Err: ending.ErrNothingToLand}
}
