package worker

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task/store"
)

// Backoff after an agent-wide outage that time may cure: the first wait,
// doubled after each outage in a row, up to the cap.
const (
	defaultBackoff = 30 * time.Second
	maxBackoff     = 15 * time.Minute
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
			w.fatal = &PreflightError{Err: fmt.Errorf("%s: %s", o, why), Advice: outageAdvice(o, agentName)}
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
	w.writePause(&Pause{Until: w.clock().Add(wait).UTC(), Reason: fmt.Sprintf("%s (%s)", o, why)})
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
	return max(w.pausedUntil.Sub(w.clock()), 0), w.fatal
}

// outageAdvice says what to do about a lasting outage of the agent that
// ran (claude, codex or command:<name>), in that agent's own terms.
func outageAdvice(o agent.Outage, agentName string) string {
	switch {
	case o == agent.OutageUnreachable && agentName == "codex":
		return "check the network and codex's model_provider base_url, then start the worker again"
	case o == agent.OutageUnreachable:
		return "check the network (and ANTHROPIC_BASE_URL, a proxy or a firewall), then start the worker again"
	case o == agent.OutageAuth && agentName == "codex":
		return "check codex's credentials (OPENAI_API_KEY, or codex login), then start the worker again"
	case o == agent.OutageAuth && strings.HasPrefix(agentName, "command:"):
		return "check the credentials of " + strings.TrimPrefix(agentName, "command:") + ", then start the worker again"
	case o == agent.OutageAuth:
		return "check the agent's credentials (ANTHROPIC_API_KEY, or log in with claude), then start the worker again"
	case agentName == "codex":
		return "install codex (npm install -g @openai/codex) or set agent.binary, then start the worker again"
	case strings.HasPrefix(agentName, "command:"):
		return "install " + strings.TrimPrefix(agentName, "command:") + " or fix agent.command, then start the worker again"
	}
	return "install the agent (npm install -g @anthropic-ai/claude-code) or set agent.binary, then start the worker again"
}

// Pause is a worker holding new runs back after an agent outage, as
// .bh/runs/pause.json records it for bh status.
type Pause struct {
	Until  time.Time `json:"until"`
	Reason string    `json:"reason"`
}

func pausePath(s *store.Store) string { return filepath.Join(s.Dir, "runs", "pause.json") }

func (w *worker) writePause(p *Pause) {
	if p == nil {
		os.Remove(pausePath(w.s))
		return
	}
	b, _ := json.Marshal(p)
	os.MkdirAll(filepath.Dir(pausePath(w.s)), 0o755)
	if err := os.WriteFile(pausePath(w.s), b, 0o644); err != nil {
		w.warnf("record the pause: %v", err)
	}
}

// PausedNow is the worker's pause still in force at now, or nil.
func PausedNow(s *store.Store, now time.Time) *Pause {
	b, err := os.ReadFile(pausePath(s))
	var p Pause
	if err != nil || json.Unmarshal(b, &p) != nil || !p.Until.After(now) {
		return nil
	}
	return &p
}
