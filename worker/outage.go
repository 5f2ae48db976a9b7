package worker

import (
	"fmt"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/worker/outage"
)

// outage pauses the worker after an agent-wide outage: one that needs a
// human stops it (after the runs under way), a usage limit whose reset is
// known holds every run of the account back until then (h), and one that
// time may cure holds back new claims for a backoff that grows while the
// outage lasts. A worker run --once stops at an API it cannot reach at
// all, rather than wait for the network: the tasks stay as they were, and
// the reason is its error.
func (w *worker) outage(o agent.Outage, why, agentName string, h *outage.Hold) {
	w.mu.Lock()
	if o.Lasting() || w.opt.Once && o == agent.OutageUnreachable {
		if w.fatal == nil {
			w.fatal = &PreflightError{Err: fmt.Errorf("%s: %s", o, why), Advice: outage.Advice(o, agentName)}
		}
		w.mu.Unlock()
		w.report(Event{Kind: Paused, Summary: fmt.Sprintf("%s (%s); the worker stops", o, why)})
		return
	}
	w.mu.Unlock()
	if h != nil {
		w.limits.Hit(*h)
		return
	}
	wait := w.limits.Backoff(w.opt.Backoff, maxBackoff, fmt.Sprintf("%s (%s)", o, why))
	w.report(Event{Kind: Paused, Summary: fmt.Sprintf("%s (%s); new runs wait %s", o, why, span(wait)), Elapsed: wait})
}

// paused is how long new claims still wait (0: not paused), and the
// error that stops the worker, if any.
func (w *worker) paused() (time.Duration, error) {
	wait := w.limits.Wait(w.opt.Tick)
	w.mu.Lock()
	defer w.mu.Unlock()
	return wait, w.fatal
}
