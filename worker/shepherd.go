package worker

import (
	"context"

	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/landing"
)

// Shepherd polls the pull request of every task in review once and acts
// on what it finds (landing.Shepherd), sending the notifications the
// worker would.
func Shepherd(ctx context.Context, s *store.Store, opt Options) error {
	opt.defaults(s.Config)
	w := &worker{s: s, opt: opt} // no agent runs here: none is set up
	closeNotifier, err := w.openNotifier()
	if err != nil {
		return err
	}
	defer closeNotifier()
	return w.shepherd().Run(ctx)
}

// shepherd is the worker's landing.Shepherd.
func (w *worker) shepherd() landing.Shepherd {
	return landing.Shepherd{S: w.s, GH: landing.GH{Bin: w.opt.GH, Dir: w.s.Root}, Name: w.opt.Name,
		ReviewRounds: w.opt.ReviewRounds, Now: w.now, Policy: w.policy, Expiry: w.expiry, Notify: w.notify}
}
