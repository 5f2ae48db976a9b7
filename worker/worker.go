// Package worker is bh's loop: it claims ready tasks one at a time, runs the
// coding agent on each, and applies the agent's result to git and to the
// task (commit, roll back, or park the work while a human answers).
//
// Git operations go through worker/repo; the worker never prints, it
// reports progress through Options.Report.
package worker

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/notify"
	"github.com/bh-tracker/bh/worker/repo"
)

// Options tune a worker. The zero value works: the agent comes from the
// store's config.
type Options struct {
	Runner agent.Runner // nil: NewRunner(s.Config.Agent)
	Report func(Event)  // progress; nil discards it
	Once   bool         // work until no task is ready, then return
	Name   string       // the lease's worker name; default "worker"
	Env    []string     // extra environment for the agent
	// Timeout bounds each agent run on top of the runner's own limit, so
	// that even a runner that ignores its config cannot hang the worker.
	Timeout time.Duration

	Heartbeat time.Duration // how often the lease is renewed; default 15s
	LeaseTTL  time.Duration // a lease not renewed for this long is dead; default 2m
	Tick      time.Duration // idle re-check of leases and timeouts, besides file events; default 30s

	// Notify receives the worker's notifications. nil: Run builds one from
	// the config's notify: list (its delivery failures become Warning
	// events) and closes it on return; a given one is the caller's to close.
	Notify *notify.Notifier
	// Now is the clock for questions' expiry; nil: the store's clock.
	Now func() time.Time
}

func (o *Options) defaults() {
	if o.Name == "" {
		o.Name = "worker"
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = 15 * time.Second
	}
	if o.LeaseTTL <= 0 {
		o.LeaseTTL = 2 * time.Minute
	}
	if o.Tick <= 0 {
		o.Tick = 30 * time.Second
	}
}

type worker struct {
	s        *task.Store
	repo     *repo.Repo
	runner   agent.Runner
	agent    string // recorded on the task as who did the work
	opt      Options
	notifier *notify.Notifier
	wt       *watcher
	reportMu sync.Mutex
	// next is the earliest expiry of a pending question known to the
	// worker; zero when none is.
	next time.Time
}

// Run works through ready tasks until stop is cancelled (or, with Once,
// until none is ready). Cancelling stop lets the running agent finish and
// its result be applied; cancelling kill stops the agent too, parks its
// partial work and puts the task back to open. kill should be stop's
// parent, so that one cancel ends both.
func Run(stop, kill context.Context, s *task.Store, opt Options) error {
	opt.defaults()
	w := &worker{s: s, opt: opt, runner: opt.Runner, agent: "custom"}
	if w.runner == nil {
		r, err := NewRunner(s.Config.Agent)
		if err != nil {
			return err
		}
		w.runner, w.agent = r, agentName(s.Config.Agent)
	}
	rp, err := repo.Open(s.Root)
	if err != nil {
		return err
	}
	w.repo = rp
	if err := w.checkOp(); err != nil {
		return err
	}
	unlock, err := lockWorker(s.Dir, w.now())
	if err != nil {
		return err
	}
	defer unlock()
	if w.notifier = opt.Notify; w.notifier == nil && len(s.Config.Notify) > 0 {
		n, err := notify.New(s.Config.Notify, w.warnf)
		if err != nil {
			return fmt.Errorf("notify: %w", err)
		}
		w.notifier = n
		defer w.closeNotifier()
	}
	if err := w.recoverDead(); err != nil {
		return err
	}
	if err := w.timeouts(true); err != nil {
		return err
	}
	if w.wt, err = watch(filepath.Join(s.Dir, "tasks")); err != nil {
		return err
	}
	defer w.wt.close()
	return w.loop(stop, kill)
}

func (w *worker) loop(stop, kill context.Context) error {
	tick := time.NewTicker(w.opt.Tick)
	defer tick.Stop()
	// expiry wakes the idle worker when the next question times out.
	expiry := time.NewTimer(time.Hour)
	defer expiry.Stop()
	idle := false
	for stop.Err() == nil && kill.Err() == nil {
		if err := w.checkOp(); err != nil {
			return err
		}
		w.wt.drain() // the scan below sees every change made before it
		if err := w.timeouts(false); err != nil {
			return err
		}
		t, err := ClaimNext(w.s, workerLease(w.opt.Name, w.now()))
		if errors.Is(err, ErrNothingReady) {
			if w.opt.Once {
				return nil
			}
			if !idle {
				w.report(Event{Kind: Waiting})
				idle = true
			}
			w.armExpiry(expiry)
			select {
			case <-stop.Done():
			case <-kill.Done():
			case <-w.wt.wake:
			case <-expiry.C: // the loop's timeouts check finds it due
			case <-tick.C:
				if err := w.recoverDead(); err != nil {
					return err
				}
				if err := w.timeouts(true); err != nil {
					return err
				}
			}
			continue
		}
		if err != nil {
			return err
		}
		idle = false
		if err := w.work(kill, t); err != nil {
			return err
		}
	}
	return nil
}

// checkOp refuses to work in the middle of a merge, rebase or the like:
// a commit then would mix the agent's work into the user's operation.
func (w *worker) checkOp() error {
	op, err := w.repo.InProgressOp()
	if err != nil {
		return err
	}
	if op != "" {
		return fmt.Errorf("a git %s is in progress; finish or abort it, then start the worker again", op)
	}
	return nil
}
