package worker

import (
	"cmp"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/attempts"
	"github.com/bh-tracker/bh/worker/budget"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/landing"
	"github.com/bh-tracker/bh/worker/slots"
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

// prKept opens the pull request of t, its work on its branch, as landPR
// opens a single run's: caught up with the remote's base, checked on the
// tree the pull request gets (checkKept), pushed. Its worktree goes back
// to the pool; its branch stays for the review rounds.
func (w *worker) prKept(t *task.Task, summary, details string) (head, url string, err error) {
	target, err := w.target(t)
	if err != nil {
		return "", "", err
	}
	if head, err = w.repo.BranchTip(slots.Branch(t.ID)); err != nil {
		return "", "", err
	}
	unlock, err := w.lockLanding()
	if err != nil {
		return "", "", err
	}
	defer unlock()
	r := &run{t: t, j: &journal{Task: t.ID, Worktree: slots.WorktreePath(w.s, w.repo, t.ID), Branch: slots.Branch(t.ID),
		Target: target}}
	if r.wt, _, err = w.repo.EnsureWorktree(r.j.Worktree, r.j.Branch, head, w.s.Root); err != nil {
		return "", "", err
	}
	if r.j.Base, err = r.wt.Base(target); err != nil {
		return "", "", err
	}
	if err := w.rebased(r)(landing.CatchUpRemote(w.repo, r.wt, landing.Remote(w.s), target, r.j.Base)); err != nil {
		return "", "", err
	}
	if err := w.checkKept(r); err != nil {
		return "", "", err
	}
	gh := landing.GH{Bin: w.opt.GH, Dir: w.s.Root}
	if head, url, err = gh.OpenPR(w.stopping(), w.repo, landing.Remote(w.s), r.j.Branch, target, t,
		landing.PRBody(t, cmp.Or(summary, t.Title), details, checksOf(w.s, t.ID))); err != nil {
		return "", "", err
	}
	return head, url, w.pool.Drop(w.s, w.repo, t.ID, r.j.Worktree, "")
}

// checksOf is the last round of checks task id recorded (checkKept's), for
// its pull request's description.
func checksOf(s *store.Store, id string) []task.Event {
	t, err := s.Get(id)
	if err != nil {
		return nil
	}
	var out []task.Event
	for _, e := range t.History {
		if e.Kind != task.EventCheck {
			continue
		}
		if len(out) > 0 && e.Round != out[0].Round {
			out = out[:0]
		}
		out = append(out, e)
	}
	return out
}
