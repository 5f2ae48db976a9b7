package worker

import (
	"context"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/github"
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

// issues is one pass over the config's GitHub issues (worker/github) on
// the shepherd's beat; its trouble (a rate limit's pause too) is a warning.
func (w *worker) issues(ctx context.Context) {
	if c := w.s.Config.GitHub; c != nil {
		if _, err := github.Sync(ctx, w.s, *c, github.Options{GH: w.opt.GH, By: w.opt.Name, Logf: w.warnf}); err != nil {
			w.warnf("%v", err)
		}
	}
}
