package worker

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/landing"
)

// fate is what happens to the work in a task's worktree.
type fate string

const (
	landWork    fate = "land"    // commit it and land it on the target branch
	discardWork fate = "discard" // remove the worktree and its branch
	keepWork    fate = "keep"    // leave the worktree as it is, snapshotted under refs/bh/parked/<id>
)

// ending is how a run ends. It is decided once (decide), written to the
// run's journal, and carried out in one place (end), so that every ending
// records its history, sends its notification and reports in the same
// order, and a worker killed half-way through carries it out again on restart.
type ending struct {
	Outcome Outcome    `json:"outcome"`
	Fate    fate       `json:"fate"`
	State   task.State `json:"state,omitempty"` // "": the task keeps the state a human gave it
	Note    string     `json:"note,omitempty"`  // the state change's note
	// Status is the run's status in the history: the agent's, "error",
	// "stopped" or "lost"; "" when no agent ran (an approved gate).
	Status  string          `json:"status,omitempty"`
	Result  agent.Result    `json:"result"`
	Text    string          `json:"text,omitempty"`    // the run's line in the history when not the summary
	Stats   string          `json:"stats,omitempty"`   // the run's turns, duration and cost, when reported
	Summary string          `json:"summary,omitempty"` // the task's summary when not the result's
	Details string          `json:"details,omitempty"`
	Ask     []task.Question `json:"ask,omitempty"` // the questions the task will wait on
	// Repend is the id of an answered question that the task waits on
	// again instead of asking Ask anew: the same cause came back.
	Repend  string   `json:"repend,omitempty"`
	Context string   `json:"context,omitempty"`
	Flat    string   `json:"flat,omitempty"` // a question kept flat on a task that may not ask (human: false)
	Notify  string   `json:"notify,omitempty"`
	Session string   `json:"session,omitempty"`
	Paths   []string `json:"paths,omitempty"`  // the agent's changed paths, once the work is handled
	Commit  string   `json:"commit,omitempty"` // the parked snapshot, or the landed commit
	// Emptied: kept work that held no change, so no snapshot: an earlier
	// one in the history is not the work any more.
	Emptied bool   `json:"emptied,omitempty"`
	Err     string `json:"err,omitempty"` // an agent error, for the report
	// Checks are the check runs of this landing, recorded with it;
	// Unchecked lands (or keeps) without them: a human answered the
	// checks question.
	Checks    []task.Event `json:"checks,omitempty"`
	Unchecked bool         `json:"unchecked,omitempty"`
	// NoVerify commits without the repository's hooks: a human said to
	// land although a hook refused.
	NoVerify bool   `json:"noVerify,omitempty"`
	PR       string `json:"pr,omitempty"` // the pull request the work went to (land: pr)
}

// decide gathers what a run's answer depends on (the policy, git's view
// of the work) and decides its ending in the one place, decideEnding.
// killed: the worker's kill context stopped the agent.
func (w *worker) decide(r *run, out *agent.Outcome, runErr error, killed bool) ending {
	f := facts{Session: r.session, ID: r.t.ID, Branch: r.j.Branch}
	switch {
	case runErr != nil || out == nil:
		f.What, f.Cause = agentFailed, reason(runErr)
		if f.Outage = agent.OutageOf(runErr); f.Outage != "" {
			f.What = agentOutage
		}
		if killed {
			f.What = runStopped
		}
	default:
		w.agentBack()
		f.What, f.Result, f.Policy = agentAnswered, out.Result, w.policy(r.t)
		if out.Result.Status == agent.StatusCompleted {
			if f.Review = w.reviewReason(r, f.Policy, out); f.Review != "" {
				f.Stat = w.diffStat(r)
			}
			_, mode := config.Delivery(r.t, w.s.Config)
			f.Keep, f.PR = mode == task.LandBranch, mode == task.LandPR
			f.NoChange = w.unchanged(r)
		}
		if ev, _ := landing.FailedCheck(r.t); ev != nil {
			f.Failing, f.Rounds, f.Target = ev, w.s.Config.Rounds(), r.j.Target
		}
	}
	e := decideEnding(f)
	if e.Outcome == Unavailable {
		w.outage(f.Outage, f.Cause, r.agent)
	}
	return e
}

func questionTexts(qs []task.Question) []string {
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = q.Question
	}
	return texts
}

func noHumanDetails(asker string, res agent.Result, texts []string, context string) string {
	var b strings.Builder
	b.WriteString(asker + ":\n")
	for _, q := range texts {
		fmt.Fprintf(&b, "- %s\n", q)
	}
	if context = strings.TrimSpace(context); context != "" {
		fmt.Fprintf(&b, "\n%s\n", context)
	}
	if s := strings.TrimSpace(res.Summary); s != "" {
		fmt.Fprintf(&b, "\nIts summary: %s\n", s)
	}
	if d := strings.TrimSpace(res.Details); d != "" {
		fmt.Fprintf(&b, "\n%s\n", d)
	}
	return strings.TrimRight(b.String(), "\n")
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
	base, err := r.wt.RebaseHead()
	if err != nil {
		return false
	}
	paths, err := r.wt.Changed(firstOf(base, r.j.Base))
	return err == nil && len(paths) == 0
}
