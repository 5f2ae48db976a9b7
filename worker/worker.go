// Package worker is bh's loop: it claims ready tasks one at a time, runs the
// coding agent on each, and applies the agent's result to git and to the
// task (commit, roll back, or park the work while a human answers). A
// completion may wait for a human's approval before its commit (gates),
// questions time out by the task's policy, and notifications go out
// through worker/notify.
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
// parent, so that one cancel ends both. Meanwhile it enforces the
// questions' timeouts (see CheckTimeouts) and sends notifications.
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
			return fmt.Errorf(".bh/config.yaml: %w", err)
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
				// bh's commits skip git's auto-gc to stay fast; catch up
				// while there is nothing else to do.
				if err := w.repo.Maintain(); err != nil {
					w.report(Event{Kind: Warning, Summary: "git maintenance: " + err.Error()})
				}
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
