package worker

import (
	"fmt"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/worker/outage"
)

// outage pauses the worker after an agent-wide outage: one that needs a
// human stops it (after the runs under way), one that time may cure holds
// back new claims for a backoff that grows while the outage lasts. A
// worker run --once stops at an API it cannot reach at all, rather than
// wait for the network: the tasks stay as they were, and the reason is
// its error.
func (w *worker) outage(o agent.Outage, why, agentName string) {
	w.mu.Lock()
	if o.Lasting() || w.opt.Once && o == agent.OutageUnreachable {
		if w.fatal == nil {
			w.fatal = &PreflightError{Err: fmt.Errorf("%s: %s", o, why), Advice: outage.Advice(o, agentName)}
		}
		w.mu.Unlock()
		w.report(Event{Kind: Paused, Summary: fmt.Sprintf("%s (%s); the worker stops", o, why)})
		return
	}
	if w.backoff == 0 {
		w.backoff = w.opt.Backoff
	} else {
		w.backoff = min(2*w.backoff, maxBackoff)
	}
	wait := w.backoff
	w.pausedUntil = w.clock().Add(wait)
	w.mu.Unlock()
	w.writePause(&outage.Pause{Until: w.clock().Add(wait).UTC(), Reason: fmt.Sprintf("%s (%s)", o, why)})
	w.report(Event{Kind: Paused, Summary: fmt.Sprintf("%s (%s); new runs wait %s", o, why, span(wait)), Elapsed: wait})
}

// agentBack ends the backoff once a run got through.
func (w *worker) agentBack() {
	w.mu.Lock()
	was := w.backoff
	w.backoff, w.pausedUntil = 0, time.Time{}
	w.mu.Unlock()
	if was != 0 {
		w.writePause(nil)
	}
}

// paused is how long new claims still wait (0: not paused), and the
// error that stops the worker, if any.
func (w *worker) paused() (time.Duration, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return max(w.pausedUntil.Sub(w.clock()), w.day.Wait(w.s, w.clock()), 0), w.fatal
}

// writePause records the pause for bh status (nil: it is over).
func (w *worker) writePause(p *outage.Pause) {
	if err := outage.Record(w.s, p); err != nil {
		w.warnf("record the pause: %v", err)
	}
}
