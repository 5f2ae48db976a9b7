package worker

import (
	"cmp"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/attempts"
	"github.com/bh-tracker/bh/worker/budget"
	"github.com/bh-tracker/bh/worker/ending"
)

// tried takes the turn of t, claimed, when several attempts try it side
// by side (worker/attempts), instead of a run; done is false otherwise.
func (w *worker) tried(t *task.Task) (done bool, err error) {
	return attempts.Turn{S: w.s, Repo: w.repo, By: w.opt.Name, Now: w.now, Owns: w.owns, Target: w.target,
		Limit: func(t *task.Task) float64 { usd, _ := budget.Limit(t, w.s.Config); return usd },
		Until: func(t *task.Task, at time.Time) *time.Time { return w.expiry(w.policy(t), at) },
		Land:  w.landKept, Release: w.release, Warnf: w.warnf,
		Settled: func(t *task.Task, notify string, out ending.Outcome, note string) {
			w.claims.Unclaim(t, w.lease())
			w.notify(notify, t)
			if out != "" {
				w.report(Event{Kind: Finished, Task: t.ID, Title: t.Title, Outcome: out, Summary: cmp.Or(t.Summary, note),
					Questions: ending.QuestionTexts(t.Pending())})
			}
		}}.Take(t)
}
