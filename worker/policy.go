package worker

import (
	"fmt"
	"strings"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// policy is t's human-in-the-loop policy. A bad setting is reported as a
// warning and its default used: the work goes on.
func (w *worker) policy(t *task.Task) task.HumanPolicy {
	p, err := config.Policy(t, w.s.Config)
	if err != nil {
		w.warnf("%v (the default applies)", err)
	}
	return p
}

// expiry is when a question asked at `at` times out. The worker notes it,
// so that its timer wakes it then.
func (w *worker) expiry(p task.HumanPolicy, at time.Time) *time.Time {
	e := at.Add(p.Timeout)
	w.noteExpiry(e)
	return &e
}

func (w *worker) noteExpiry(e time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.next.IsZero() || e.Before(w.next) {
		w.next = e
	}
}

// gateReason says why a completion must wait for a human's approval
// before it is committed, or "" when it need not.
func gateReason(p task.HumanPolicy, res agent.Result) string {
	var why []string
	if p.Approval {
		why = append(why, "the task is gated (gate: approval)")
	}
	if !p.NoGate && p.BelowConfidence > 0 && res.Confidence != nil && *res.Confidence < p.BelowConfidence {
		why = append(why, fmt.Sprintf("confidence %g < %g", *res.Confidence, p.BelowConfidence))
	}
	return strings.Join(why, "; ")
}

// reviewReason is gateReason, plus what makes a completion suspect: the
// agent moved its branch itself (bh bans git commit and the like), or some
// of its tool calls were refused (a denied "go test" then "tests pass").
func (w *worker) reviewReason(r *run, p task.HumanPolicy, out *agent.Outcome) string {
	why := []string{}
	if g := gateReason(p, out.Result); g != "" {
		why = append(why, g)
	}
	if r.head != "" {
		if tip, err := w.repo.BranchTip(r.j.Branch); err == nil && tip != r.head {
			why = append(why, "the agent moved its branch "+r.j.Branch+" itself")
		}
	}
	if len(out.Denials) > 0 {
		why = append(why, "tool calls were denied: "+strings.Join(out.Denials, "; "))
	}
	return strings.Join(why, "; ")
}

// span prints a duration the way people write it: 24h, 90m, 1h30m.
func span(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
