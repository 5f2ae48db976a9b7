package worker

import (
	"context"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/landing"
)

// Shepherd polls the pull request of every task in review once, as the
// worker does every ReviewPoll (landing.Shepherd).
func Shepherd(ctx context.Context, s *store.Store, opt Options) error {
	opt.defaults(s.Config)
	w := &worker{s: s, opt: opt} // no agent runs here: none is set up
	closeNotifier, err := w.openNotifier()
	if err != nil {
		return err
	}
	defer closeNotifier()
	return w.shepherd().Poll(ctx)
}

// shepherd is the worker's pull request shepherd.
func (w *worker) shepherd() landing.Shepherd {
	return landing.Shepherd{Store: w.s, GH: w.opt.GH, By: w.opt.Name, ReviewRounds: w.opt.ReviewRounds,
		Now: w.now, Policy: w.policy, Notify: w.notify,
		Ask: func(t *task.Task, at time.Time, qs []task.Question, context string, p task.HumanPolicy) {
			ending.Ask(t, at, qs, context, w.expiry(p, at))
		}}
}
