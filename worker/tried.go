package worker

import (
	"cmp"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/attempts"
	"github.com/bh-tracker/bh/worker/budget"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/landing"
)

// tried takes the turn of t, claimed, when several attempts try it side
// by side (worker/attempts), instead of a run; done is false otherwise.
func (w *worker) tried(t *task.Task) (done bool, err error) {
	return attempts.Turn{S: w.s, Repo: w.repo, By: w.opt.Name, Now: w.now, Owns: w.owns, Target: w.target,
		Limit: func(t *task.Task) float64 { usd, _ := budget.Limit(t, w.s.Config); return usd },
		Until: func(t *task.Task, at time.Time) *time.Time { return w.expiry(w.policy(t), at) },
		Land:  w.landKept, PR: w.prKept, Release: w.release, Warnf: w.warnf,
		Settled: func(t *task.Task, notify string, out ending.Outcome, note string) {
			w.claims.Unclaim(t, w.lease())
			w.notify(notify, t)
			if out != "" {
				w.report(Event{Kind: Finished, Task: t.ID, Title: t.Title, Outcome: out, Summary: cmp.Or(t.Summary, note),
					Questions: ending.QuestionTexts(t.Pending())})
			}
		}}.Take(t)
}

// prKept opens t's pull request, picked's work on t's branch, as landPR
// does (caught up, checked, pushed); its review rounds resume picked's session.
func (w *worker) prKept(t, picked *task.Task) (head, url string, err error) {
	head, target, err := landing.KeptWork(w.repo, t, w.target)
	if err != nil {
		return "", "", err
	}
	unlock, err := w.lockLanding()
	if err != nil {
		return "", "", err
	}
	defer unlock()
	r, checks, err := w.keptRun(t, head, target, func(r *run) (string, error) {
		return landing.CatchUpRemote(w.repo, r.wt, landing.Remote(w.s), target, r.j.Base)
	})
	if err != nil {
		return "", "", err
	}
	if head, url, err = (landing.GH{Bin: w.opt.GH, Dir: w.s.Root}).OpenPR(w.stopping(), w.repo, landing.Remote(w.s), r.j.Branch, target, t,
		landing.PRBody(t, cmp.Or(picked.Summary, t.Title), picked.Details, checks)); err != nil {
		return "", "", err
	}
	if picked.SessionID != "" { // else, or not copied, a review round starts afresh (freshSession)
		w.copySession(t.ID, sessionCopy(w.s, picked.ID, picked.SessionID), picked.SessionID)
	}
	return head, url, w.pool.Drop(w.s, w.repo, t.ID, r.j.Worktree, "")
}
