package worker

import (
	"fmt"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

// Backoff after an agent-wide outage that time may cure: the first wait,
// doubled after each outage in a row, up to the cap.
const (
	defaultBackoff = 30 * time.Second
	maxBackoff     = 15 * time.Minute
)

// outageEnding puts a task whose run met an agent-wide outage back to
// open, its work kept: the task is not at fault and runs again once the
// agent is back.
func outageEnding(r *run, o agent.Outage, cause error) ending {
	why := reason(cause)
	return ending{Outcome: Unavailable, Fate: keepWork, State: task.Open, Status: string(AgentError), Session: r.session,
		Text: why, Err: why, Summary: fmt.Sprintf("%s: %s", o, why), Note: fmt.Sprintf("not the task's fault: %s (%s); it runs again once the agent is back", o, why)}
}

// outage pauses the worker after an agent-wide outage: one that needs a
// human stops it (after the runs under way), one that time may cure holds
// back new claims for a backoff that grows while the outage lasts.
func (w *worker) outage(o agent.Outage, why string) {
	w.mu.Lock()
	if o.Lasting() {
		if w.fatal == nil {
			w.fatal = &PreflightError{Err: fmt.Errorf("%s: %s", o, why), Advice: outageAdvice(o)}
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
	w.report(Event{Kind: Paused, Summary: fmt.Sprintf("%s (%s); new runs wait %s", o, why, span(wait)), Elapsed: wait})
}

// agentBack ends the backoff once a run got through.
func (w *worker) agentBack() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.backoff, w.pausedUntil = 0, time.Time{}
}

// paused is how long new claims still wait (0: not paused), and the
// error that stops the worker, if any.
func (w *worker) paused() (time.Duration, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return max(w.pausedUntil.Sub(w.clock()), 0), w.fatal
}

func outageAdvice(o agent.Outage) string {
	if o == agent.OutageAuth {
		return "check the agent's credentials (ANTHROPIC_API_KEY, or log in with claude), then start the worker again"
	}
	return "install the agent (npm install -g @anthropic-ai/claude-code) or set agent.binary, then start the worker again"
}
