package worker

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"time"

	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/attempts"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/usertree"
	"github.com/bh-tracker/bh/worker/notify"
	"github.com/bh-tracker/bh/worker/outage"
	"github.com/bh-tracker/bh/worker/slots"
	"github.com/bh-tracker/bh/worker/storegit"
	"github.com/bh-tracker/bh/worker/watch"
)

// Run works through ready tasks until stop is cancelled (or, with Once,
// until none is ready and none runs). Cancelling stop lets the running
// agents finish and their results be applied, but ends at once what bh
// runs itself (worktree.setup, checks, recovery: they run again on the
// next start); cancelling kill stops the agents too, parks their partial
// work and puts the tasks back to open.
// kill should be stop's parent, so that one cancel ends both. Meanwhile it
// enforces the questions' timeouts (see timeout.go) and sends
// notifications.
func Run(stop, kill context.Context, s *store.Store, opt Options) error {
	w, err := newWorker(s, opt)
	if err != nil {
		return err
	}
	w.pool.Trims, w.pool.Jobs, w.stop = true, w.opt.Jobs, stop
	if err := w.preflight(kill); err != nil {
		return err
	}
	unlock, err := claims.LockWorker(s.Local(), w.now())
	if err != nil {
		return err
	}
	defer unlock()
	s.CleanTemp(2 * time.Second) // what writes killed with a dead worker left
	if done, err := slots.RepairHalfMade(s, w.repo); err != nil {
		w.warnf("%v", err)
	} else if len(done) > 0 {
		w.warnf("removed %d half-made worktree registration(s) a killed git worktree add left: %s", len(done),
			strings.Join(done, ", "))
	}
	if err := w.finishHalfDone(); err != nil {
		w.warnf("%v", err)
	}
	store.TrimSteps(s)
	if err := attempts.Prune(s, w.repo, w.now()); err != nil {
		w.warnf("attempts kept a week: %v", err)
	}
	w.claims.AdoptOrphans(w.lease()) // first: a worker killed again and again still renews the claims its runs keep
	closeNotifier, err := w.openNotifier()
	if err != nil {
		return err
	}
	defer closeNotifier()
	if err := w.recoverDead(w.runFailed); err != nil {
		return err
	}
	if err := w.timeouts(true); err != nil {
		return err
	}
	if err := w.announce(); err != nil {
		return err
	}
	if w.wt, err = watch.New(filepath.Join(s.Dir, "tasks")); err != nil {
		return err
	}
	defer w.wt.Close()
	defer w.startSyncer()() // autoSync:, and claims handed off (worker/claims/handoff.go)
	return w.loop(stop, kill)
}

// finishHalfDone finishes, before recovery reads the branches, a landing
// or a sync a kill cut short in the user's tree: a recovered task whose
// branch already moved would never land again to do it.
func (w *worker) finishHalfDone() error {
	unlock, err := w.lockLanding()
	if err != nil {
		return err
	}
	defer unlock()
	return usertree.Of(w.repo).Recover()
}

func newWorker(s *store.Store, opt Options) (*worker, error) {
	opt.defaults(s.Config)
	w := &worker{s: s, opt: opt, runner: opt.Runner, agent: "custom", active: map[string]bool{}}
	if w.runner == nil {
		r, err := NewRunner(s.Config.Agent, w.mcp())
		if err != nil {
			return nil, err
		}
		w.runner, w.agent = r, s.Config.Agent.Name()
	}
	rp, err := git.Open(s.Root)
	if err != nil {
		return nil, err
	}
	w.repo = rp
	rp.LockBound, rp.Hooks = opt.GitLocks, opt.GitHooks
	if rp.Hooks.Tampered == nil {
		rp.Hooks.Tampered = func(t *git.Tampered) {
			w.warnf("%v: rewritten as bh's (an agent's attempt to run its programs through bh's git)", t)
		}
	}
	w.limits = outage.NewLimits(s, rp, w.agent, opt.Env, &outage.Limits{By: opt.Name, Now: w.clock,
		Tell: func(say string, wait time.Duration) { w.report(Event{Kind: Paused, Summary: say, Elapsed: wait}) },
		Send: func(e notify.Event) { w.notifier.Send(e) }, Warn: w.warnf})
	w.day.Tell, w.day.Send = w.limits.Tell, w.limits.Send
	if s.Config.Remote != "" {
		w.claims = openClaims(s, rp, s.Config.Remote, opt.LeaseTTL, w.now, w.warnf)
	}
	return w, nil
}

// loop claims ready tasks while a slot is free and waits for a run to
// end, a task file to change, a question to expire or the tick.
func (w *worker) loop(stop, kill context.Context) error {
	tick := time.NewTicker(w.opt.Tick)
	defer tick.Stop()
	// expiry wakes the idle worker when the next question times out.
	expiry := time.NewTimer(time.Hour)
	defer expiry.Stop()
	done := make(chan runEnd, w.opt.Jobs)
	running, idle := 0, false
	var failed error
	for {
		w.limits.Fetch() // another machine's usage limit holds this one back too
		wait, fatal := w.paused()
		if stop.Err() != nil || kill.Err() != nil || failed != nil || fatal != nil && running == 0 {
			failed = errors.Join(failed, fatal)
			break
		}
		more, err := w.round(kill, &running, &idle, wait, done)
		if err != nil || !more {
			failed = err
			break
		}
		w.armExpiry(expiry)
		failed = w.await(stop, kill, wait, done, &running, expiry.C, tick.C)
	}
	for ; running > 0; running-- {
		w.runFailed(<-done)
	}
	w.shepherds.Wait()
	return failed
}

// round is one turn of the loop: it claims what it can and, when nothing
// runs or waits, says the worker is idle (once). false: nothing is left
// to do (Once).
func (w *worker) round(kill context.Context, running *int, idle *bool, wait time.Duration, done chan<- runEnd) (bool, error) {
	w.wt.Drain() // the scan below sees every change made before it
	if err := w.timeouts(false); err != nil {
		return false, err
	}
	claimed, err := w.fill(kill, running, done)
	if err != nil {
		return false, err
	}
	if *running > 0 || claimed || wait > 0 {
		*idle = false
		return true, nil
	}
	if w.opt.Once {
		return false, nil
	}
	if !*idle {
		*idle = true
		w.idle()
	}
	return true, nil
}

// await waits for the loop's next turn: a run's end, a task file's
// change, a question's expiry, the end of a pause, the stop, or the tick
// (whose chores it does).
func (w *worker) await(stop, kill context.Context, wait time.Duration, done <-chan runEnd, running *int,
	expiry, tick <-chan time.Time) error {
	var resume <-chan time.Time
	if wait > 0 {
		resume = time.After(wait)
	}
	select {
	case <-resume:
	case <-stop.Done():
	case <-kill.Done():
	case end := <-done:
		*running--
		w.runFailed(end)
	case <-w.wt.Wake():
	case <-expiry: // the loop's timeouts check finds it due
	case <-tick:
		w.thaw()
		w.shepherdDue(kill)
		w.landUnblocked()
		if err := w.recoverDead(w.runFailed); err != nil {
			return err
		}
		return w.timeouts(true)
	}
	return nil
}

// fill starts runs for ready tasks until every slot is busy.
func (w *worker) fill(kill context.Context, running *int, done chan<- runEnd) (bool, error) {
	claimed := false
	for _, say := range append(storegit.RestoreOlder(w.s), w.s.RestoreOwnFiles()...) {
		w.warnf("%s", say) // never run a task from a file git took back; git add -A commits no temp file
	}
	if err := w.day.Check(w.s, w.clock()); err != nil {
		w.warnf("the day's budget: %v", err)
	}
	for *running < w.opt.Jobs {
		if wait, fatal := w.paused(); wait > 0 || fatal != nil || *running > 0 && w.limits.Single() {
			return claimed, nil
		}
		t, err := claims.Next(w.s, w.claims, w.lease(), w.skip, ending.Settled)
		if errors.Is(err, claims.ErrNothingReady) {
			return claimed, nil
		}
		var unreachable *git.RemoteError
		if errors.As(err, &unreachable) { // claims wait for the remote; the worker goes on
			w.warnf("no new task until the remote answers: %v", err)
			return claimed, nil
		}
		if err != nil {
			return claimed, err
		}
		claimed = true
		*running++
		w.setActive(t.ID, true)
		go func() {
			err := w.work(kill, t)
			w.setActive(t.ID, false) // before the loop hears of the end: its next claim may take t again
			done <- runEnd{t.ID, err}
		}()
	}
	return claimed, nil
}

// shepherdDue polls the pull requests in review once ReviewPoll has
// passed since the last time, beside the loop (gh may be slow); trouble
// with gh is a warning, not a stop. A task it reopens wakes the loop
// through the task files' watcher.
func (w *worker) shepherdDue(ctx context.Context) {
	if time.Since(w.shepherded) < w.opt.ReviewPoll || !w.shepherding.CompareAndSwap(false, true) {
		return
	}
	w.shepherded = time.Now()
	w.shepherds.Add(1)
	go func() {
		defer w.shepherds.Done()
		defer w.shepherding.Store(false)
		if err := w.shepherd().Poll(ctx); err != nil {
			w.warnf("%v", err)
		}
		w.issues(ctx)
	}()
}

// idle reports the wait and catches up on git's housekeeping, which bh's
// commits skip to stay fast.
func (w *worker) idle() {
	w.report(Event{Kind: Waiting})
	if err := w.repo.Maintain(); err != nil {
		w.report(Event{Kind: Warning, Summary: "git maintenance: " + err.Error()})
	}
}

// armExpiry sets the timer to fire at the next known expiry, if any.
func (w *worker) armExpiry(t *time.Timer) {
	t.Stop()
	w.mu.Lock()
	next := w.next
	w.mu.Unlock()
	if !next.IsZero() {
		t.Reset(max(next.Sub(w.clock()), 0))
	}
}

// skip passes over the tasks that cool after a failed run, and those
// running here.
func (w *worker) skip(id string) bool { return w.cooling(id) || w.isActive(id) }
