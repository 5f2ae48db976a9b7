package worker

import (
	"errors"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/plan"
	"github.com/bh-tracker/bh/worker/budget"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/outage"
)

// decide gathers what a run's answer depends on (the policy, git's view
// of the work) and decides its ending in the one place, ending.Decide.
// killed: the worker's kill context stopped the agent.
func (w *worker) decide(r *run, out *agent.Outcome, runErr error, killed bool) ending.Ending {
	f := ending.Facts{Session: r.session, ID: r.t.ID, Branch: r.j.Branch}
	spend := budget.Of(out, runErr)
	switch {
	case !killed && budget.Stopped(&f, r.t, runErr, spend):
		f.Policy = w.policy(r.t)
	case runErr != nil || out == nil:
		f.What, f.Cause = ending.AgentFailed, reason(runErr)
		if f.Outage = agent.OutageOf(runErr); f.Outage != "" {
			f.What = ending.AgentOutage
		}
		if killed {
			f.What = ending.RunStopped
		}
	default:
		w.limits.Back()
		f.What, f.Result, f.Policy = ending.AgentAnswered, out.Result, w.policy(r.t)
		if f.Planning = plan.Planning(r.t, w.s.Config.Plan); f.Planning && r.wt != nil {
			f.Wrote, _ = r.wt.Touched(r.j.Base) // a planning run must change no file
		}
		if out.Result.Status == agent.StatusCompleted {
			if f.Review = w.reviewReason(r, f.Policy, out); f.Review != "" {
				f.Stat = w.diffStat(r)
			}
			_, mode := config.Delivery(r.t, w.s.Config)
			f.Keep, f.PR, f.Target = mode == task.LandBranch, mode == task.LandPR, r.j.Target
			f.NoChange = w.unchanged(r)
		}
		if ev, _ := ending.FailedCheck(r.t); ev != nil {
			f.Failing, f.Rounds, f.Target = ev, w.s.Config.Rounds(), r.j.Target
		}
	}
	hold := outage.HoldFrom(runErr, w.opt.Name, w.clock())
	f.Paused = hold.Event()
	e := ending.Decide(f)
	e.Spend = spend
	if e.Outcome == ending.Unavailable {
		w.outage(f.Outage, f.Cause, r.agent, hold)
	}
	return e
}

// reason is an agent error as one line for the task.
func reason(err error) string {
	var re *agent.RunError
	if errors.As(err, &re) && re.Reason != "" {
		return re.Reason
	}
	if err == nil {
		return "the agent returned no result"
	}
	return err.Error()
}

// unchanged reports whether the agent's worktree holds no change from
// where its work starts (mid-rebase, the commits replayed so far): a
// completion that changed nothing. Unknown counts as changed.
func (w *worker) unchanged(r *run) bool {
	if r.wt == nil {
		return false
	}
	paths, err := r.wt.Touched(r.j.Base)
	return err == nil && len(paths) == 0
}
