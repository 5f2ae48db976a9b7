package worker

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/notify"
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
	Err     string   `json:"err,omitempty"`    // an agent error, for the report
}

// decide turns a run's answer into its ending. killed: the worker's kill
// context stopped the agent.
func (w *worker) decide(r *run, out *agent.Outcome, runErr error, killed bool) ending {
	e := ending{Session: r.session}
	if runErr != nil || out == nil {
		if killed {
			return stopEnding(r, reason(runErr))
		}
		if o := agent.OutageOf(runErr); o != "" {
			w.outage(o, reason(runErr), r.agent)
			return outageEnding(r, o, runErr)
		}
		return agentErrorEnding(r, runErr, "")
	}
	w.agentBack()
	res := out.Result
	e.Result, e.Status = res, string(res.Status)
	p := w.policy(r.t)
	switch res.Status {
	case agent.StatusCompleted:
		if why := w.reviewReason(r, p, out); why != "" {
			return gateEnding(e, r.t.ID, why, w.diffStat(r), p.Allowed)
		}
		e.Outcome, e.Fate, e.State, e.Notify = Completed, landWork, task.Closed, notify.EventTaskCompleted
	case agent.StatusFailed:
		e.Outcome, e.Fate, e.State, e.Notify = Failed, discardWork, task.Failed, notify.EventTaskFailed
	case agent.StatusBlocked:
		e.Outcome, e.Fate, e.State, e.Notify, e.Note = Blocked, keepWork, task.Blocked, notify.EventTaskBlocked, res.Summary
	case agent.StatusNeedsInput:
		e.Outcome, e.Fate, e.State, e.Notify, e.Note = NeedsInput, keepWork, task.AwaitingInput,
			notify.EventInputRequested, res.Summary
		e.Ask, e.Context = asked(res), res.QuestionContext
		if !p.Allowed {
			return noHuman(e)
		}
	default:
		return agentErrorEnding(r, fmt.Errorf("unknown result status %q", res.Status), "")
	}
	return e
}

// gateEnding holds a completion for a human's approval: the work stays in
// its worktree, and a yes lands it without running the agent again.
func gateEnding(e ending, id, why, stat string, allowed bool) ending {
	e.Outcome, e.Fate, e.State, e.Notify = Gated, keepWork, task.AwaitingInput, notify.EventInputRequested
	e.Note = "held for approval: " + why
	e.Ask = []task.Question{{Question: fmt.Sprintf("Approve and commit %s?", id), Header: "Approval",
		Type: task.ApprovalQuestion, Gate: true}}
	e.Context = approvalContext(e.Result.Summary, why, stat)
	if !allowed {
		return noHuman(e)
	}
	return e
}

// NoHumanSummary is the summary of a task that would have waited for a
// human, had its policy (human: false) allowed one.
const NoHumanSummary = "needed a human but none was allowed"

// noHuman fails a task that would wait for a human when none may be
// asked. The work stays parked and the question is kept, flat and in the
// details, for whoever looks.
func noHuman(e ending) ending {
	texts := questionTexts(e.Ask)
	e.Summary, e.Details = NoHumanSummary, noHumanDetails(e.Result, texts, e.Context)
	e.Outcome, e.State, e.Notify = Failed, task.Failed, notify.EventTaskFailed
	e.Note = NoHumanSummary + " (human: false)"
	e.Ask, e.Flat = nil, texts[0]
	return e
}

// agentErrorEnding fails the task when the agent itself went wrong (crash,
// garbage, timeout): its partial work is parked, not thrown away.
func agentErrorEnding(r *run, cause error, log string) ending {
	why := reason(cause)
	e := ending{Outcome: AgentError, Fate: keepWork, State: task.Failed, Status: string(AgentError),
		Text: why, Summary: "agent error: " + why, Note: "agent error: " + why,
		Notify: notify.EventTaskFailed, Session: r.session, Err: why}
	if log != "" {
		e.Details = "run log: " + log
	}
	return e
}

// stopEnding parks the work of an agent the worker stopped and reopens the
// task, to resume the same session on the next start.
func stopEnding(r *run, why string) ending {
	return ending{Outcome: Stopped, Fate: keepWork, State: task.Open, Status: string(Stopped), Session: r.session,
		Note: "stopped; resumes on the next start", Text: why, Notify: notify.EventTaskStopped}
}

// lostEnding parks the work of a run whose task a human took back (bh stop,
// an edit): nothing is committed and the task keeps the human's state.
func lostEnding(r *run) ending {
	return ending{Outcome: Stopped, Fate: keepWork, Status: string(Stopped), Session: r.session,
		Text: "the task was taken back while the worker had it", Notify: notify.EventTaskStopped}
}

func questionTexts(qs []task.Question) []string {
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = q.Question
	}
	return texts
}

func noHumanDetails(res agent.Result, texts []string, context string) string {
	var b strings.Builder
	b.WriteString("The agent asked:\n")
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
