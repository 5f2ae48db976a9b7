package worker

import (
	"context"
	"errors"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/landing"
)

// landSettled lands at once the work of t, open with a human's answer
// that lands it (bh land right after bh respond --yes): claimed as a
// worker would, and ended by decided without running the agent.
func (w *worker) landSettled(ctx context.Context, t *task.Task) error {
	t, err := claims.Claim(w.s, t.ID, w.lease(), landing.Settled)
	var nr *claims.NotReadyError
	if errors.As(err, &nr) {
		return &landing.NotLandedError{ID: nr.ID, State: nr.State, Reason: "a running worker took it up first, and lands it"}
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
	return &landing.NotLandedError{ID: t.ID, State: t.State, Reason: lastNote(t)}
}
