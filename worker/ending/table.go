package ending

import (
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

// Happening is what became of a task, found out before its ending is
// decided. Everything that needs I/O (the policy, git's view of the work,
// the task's history) is read into it first, so that Decide, the one
// place every ending is built, is a pure function: one table test covers
// every row (table_test.go).
type Happening int

const (
	AgentAnswered Happening = iota // the agent returned a result: Result
	AgentFailed                    // it crashed, timed out, printed garbage, or a commit hook refused: Cause
	AgentOutage                    // the agent itself is out (auth, missing, overload, limits): Outage, Cause
	RunStopped                     // the worker's kill context stopped it: Cause
	RunLost                        // a human took the task back meanwhile (bh stop, an edit)
	RunRecovered                   // a dead worker's run, found by recovery: Cause says whose
	SetupError                     // its worktree could not be set up; no agent ran: Cause
	HumanApproved                  // a human approved the gate: By
	HumanLanding                   // a human answered the landing question: Landing, By
	LandConflict                   // the landing's rebase conflicted: Paths, Round, Rounds
	LandRefused                    // git refused to overwrite the user's changes: Reason, Paths, Dir
	CheckFailure                   // a check failed on the tree that would land: Checks, Rounds
	HumanChecked                   // a human answered the checks question: Landing (checkLand or checkKeep), By
	SignFailure                    // git could not sign the landing's commit as the user's config asks: Cause (git's words), Question
	PRReview                       // a pull request needs a human: Reason (the question), Cause (the context)
	BudgetCrossed                  // the run was stopped at the task's budget: Spent, Budget
	HumanBudget                    // a human answered no to going on past the budget: By
)

// Facts is a Happening with what its ending depends on.
type Facts struct {
	What     Happening
	Result   agent.Result
	Cause    string       // in words, for the errors and stops
	Outage   agent.Outage // agentOutage
	Paused   string       // agentOutage: the usage limit that cut the run short, and its reset
	Session  string
	Policy   task.HumanPolicy
	Review   string // why a completion waits for a human ("" lands it)
	Stat     string // the work's diff stat, shown with the approval question
	NoChange bool   // a completion whose worktree holds no change: only the task file would be committed
	Keep     bool   // the work stays on its branch (land: branch)
	PR       bool   // the work goes to a pull request and waits there in review (land: pr)
	By       string // who answered, for humanApproved and humanLanding
	Landing  string // humanLanding: landNow or landKeep
	// A landing's trouble: the ending it interrupted (Prior), where, and
	// what stood in the way.
	Prior    Ending
	ID       string
	Target   string
	Branch   string
	Worktree string
	Summary  string // the task's summary, for what a human settles
	Paths    []string
	Reason   string
	Dir      string
	Round    int            // landConflict: the how-manieth conflict since the work last landed or a human answered
	Asked    *task.Question // landRefused: the landing question answered "land" before, if any
	Question task.Question  // landRefused: the landing question to ask
	// Checks are a checking round's runs, the failed one last (checkFailed);
	// Rounds is how many rounds (of checks, of landing conflicts) go to the
	// agent before a human is asked; Failing is the failed check a resumed session was to fix
	// (agentAnswered), nil when none was.
	Checks  []task.Event
	Rounds  int
	Failing *task.Event
	// BudgetCrossed: what the task has spent, its earlier runs and this
	// one, and its budget, in USD.
	Spent, Budget float64
	// Planning: the run was a planning run (plan: true); Wrote, the files
	// it changed all the same.
	Planning bool
	Wrote    []string
}

// Decide is how a task ends, given what happened: the one decision
// (end carries it out). The table decides as if a human may be asked;
// human: false is applied after it, to every row, in one place.
func Decide(f Facts) Ending {
	return unasked(f.Policy, table(f))
}

// unasked is e under policy p: an ending that would wait for a human
// fails instead when none may be asked (human: false). Every ending that
// asks passes here, the pull request's escalation included. Finished work
// that something outside the agent keeps from landing (the user's tree,
// a signing failure) never fails: it waits for the obstacle to go,
// as it does for a task that may ask, and bh land lands it.
func unasked(p task.HumanPolicy, e Ending) Ending {
	switch {
	case p.Allowed || e.State != task.AwaitingInput:
		return e
	case e.Outcome == Held:
		e.Note += "; the finished work waits: bh land lands it (human: false fails no finished work)"
		return e
	}
	return noHuman(e)
}

// table is every ending a happening can have, for a task that may ask:
// endings picks the function that makes it.
func table(f Facts) Ending {
	if f.Planning && f.What == AgentAnswered {
		return planned(f)
	}
	if end := endings[f.What]; end != nil {
		return end(f)
	}
	return unanswered(Facts{What: AgentFailed, Session: f.Session, Cause: fmt.Sprintf("no ending for happening %d", f.What)})
}

// endings is the function that makes the ending of each happening.
var endings = map[Happening]func(Facts) Ending{
	AgentAnswered: answered,
	AgentFailed:   unanswered, AgentOutage: unanswered, RunStopped: unanswered, RunRecovered: unanswered,
	RunLost: unanswered, SetupError: unanswered,
	HumanApproved: settled, HumanLanding: settled, HumanChecked: settled,
	CheckFailure:  checksFailed,
	LandConflict:  conflicted,
	LandRefused:   held,
	SignFailure:   signHeld,
	BudgetCrossed: budget, HumanBudget: budget,
	PRReview: prReview,
}

// prReview asks a human about a pull request the agent could not settle.
func prReview(f Facts) Ending {
	return Ending{State: task.AwaitingInput, Note: "pull request needs a human", Context: f.Cause,
		Ask: []task.Question{{Question: f.Reason, Header: "Pull request", Type: task.FreeformQuestion}}}
}

// unanswered is the ending of a run that brought no result of the
// agent's: an error, an outage, a stop, or no run at all.
func unanswered(f Facts) Ending {
	switch f.What {
	case AgentOutage:
		e := Ending{Outcome: Unavailable, Fate: KeepWork, State: task.Open, Status: string(AgentError),
			Session: f.Session, Text: f.Cause, Err: f.Cause, Summary: fmt.Sprintf("%s: %s", f.Outage, f.Cause),
			Note: fmt.Sprintf("not the task's fault: %s (%s); it runs again once the agent is back", f.Outage, f.Cause)}
		if f.Paused != "" { // the same session goes on after the reset
			e.Paused, e.Notify = f.Paused, task.EventLimitPaused
		}
		return e
	case RunStopped:
		return Ending{Outcome: Stopped, Fate: KeepWork, State: task.Open, Status: string(Stopped), Session: f.Session,
			Note: "stopped; resumes on the next start", Text: f.Cause, Notify: task.EventTaskStopped}
	case RunRecovered:
		return Ending{Outcome: Stopped, Fate: KeepWork, State: task.Open, Status: "lost", Session: f.Session,
			Note: f.Cause, Text: f.Cause, Notify: task.EventTaskStopped}
	case RunLost:
		return Ending{Outcome: Stopped, Fate: KeepWork, Status: string(Stopped), Session: f.Session,
			Text: "the task was taken back while the worker had it", Notify: task.EventTaskStopped}
	case SetupError:
		return Ending{Outcome: SetupFailed, Fate: KeepWork, State: task.Failed, Summary: f.Cause, Note: f.Cause,
			Notify: task.EventTaskFailed, Err: f.Cause, Text: f.Cause}
	}
	return Ending{Outcome: AgentError, Fate: KeepWork, State: task.Failed, Status: string(AgentError),
		Text: f.Cause, Summary: "agent error: " + f.Cause, Note: "agent error: " + f.Cause,
		Notify: task.EventTaskFailed, Session: f.Session, Err: f.Cause}
}

// settled is the ending a human's answer settles without the agent: the
// work lands, or stays on its branch. Next says so to whoever answered.
func settled(f Facts) Ending {
	e := Ending{Outcome: Completed, Fate: LandWork, State: task.Closed, Notify: task.EventTaskCompleted,
		Session: f.Session, Summary: f.Summary, Note: "approved by " + f.By,
		Next: "approved: the worker lands its work as it is"}
	kept := "the worker keeps its work on branch " + f.Branch
	switch f.What {
	case HumanLanding:
		e.Note, e.Next = "landing: "+f.Landing+", answered by "+f.By, "the worker lands its work"
		if f.Landing == LandKeep {
			e.Outcome, e.Next = Kept, kept
		}
	case HumanChecked: // either answer: the checks that fail are not run again
		e.Note, e.Unchecked = "checks: "+f.Landing+", answered by "+f.By, true
		e.Next = "the worker lands its work although its check fails"
		if f.Landing == CheckKeep {
			e.Outcome, e.Next = Kept, kept+" and ends the task"
		}
	}
	e.Next += ", without running the agent again"
	return e
}

// answered is the ending the agent's own result asks for, under the
// task's policy.
func answered(f Facts) Ending {
	res := f.Result
	e := Ending{Session: f.Session, Result: res, Status: string(res.Status)}
	switch res.Status {
	case agent.StatusCompleted:
		if f.Review != "" {
			return gated(e, f)
		}
		e.Outcome, e.Fate, e.State, e.Notify = Completed, LandWork, task.Closed, task.EventTaskCompleted
		if f.Keep {
			e = keepOnBranch(e, f.Branch, f.ID)
		}
		if f.PR {
			e.Outcome, e.State, e.Note = InReview, task.InReview, "in review: a pull request for "+f.Branch
		}
		if f.NoChange { // said where a human looks: the summary and the history
			e.Summary = strings.TrimSpace(res.Summary + " " + NoChangeNote)
			e.Note = strings.TrimPrefix(e.Note+"; ", "; ") + "completed with no change to any file: only the task file is committed"
		}
	case agent.StatusFailed:
		if f.Failing != nil { // gave up on a failing check: the human decides, the work is kept
			return askChecks(e, f, *f.Failing)
		}
		e.Outcome, e.Fate, e.State, e.Notify = Failed, DiscardWork, task.Failed, task.EventTaskFailed
	case agent.StatusBlocked:
		e.Outcome, e.Fate, e.State, e.Notify, e.Note = Blocked, KeepWork, task.Blocked, task.EventTaskBlocked, res.Summary
	case agent.StatusNeedsInput:
		e.Outcome, e.Fate, e.State, e.Notify, e.Note = NeedsInput, KeepWork, task.AwaitingInput,
			task.EventInputRequested, res.Summary
		e.Ask, e.Context = asked(res), res.QuestionContext
		if f.Failing != nil { // asked while fixing a check: the checks question goes with its own
			e.Ask = append(e.Ask, checkQuestion(f))
			e.Context = strings.TrimSpace(e.Context + "\n\n" + checkContext(*f.Failing, f.Rounds))
		}
	default:
		return unanswered(Facts{What: AgentFailed, Session: f.Session,
			Cause: fmt.Sprintf("unknown result status %q", res.Status)})
	}
	return e
}

// keepOnBranch is completion e committed on its branch and left there
// (land: branch), for review.
func keepOnBranch(e Ending, branch, id string) Ending {
	e.Outcome = Kept
	e.Note = firstOf(e.Note, "kept on branch "+branch+" for review (bh land "+id+")")
	return e
}

// gated holds a completion for a human's approval: the work stays in its
// worktree, and a yes lands it without running the agent again.
func gated(e Ending, f Facts) Ending {
	e.Outcome, e.Fate, e.State, e.Notify = Gated, KeepWork, task.AwaitingInput, task.EventInputRequested
	e.Note = "held for approval: " + f.Review
	e.Ask = []task.Question{{Question: gateQuestion(f), Header: "Approval", Type: task.ApprovalQuestion, Gate: true}}
	e.Context = approvalContext(e.Result.Summary, f.Review, f.Stat)
	return e
}

// gateQuestion says what a yes to the gate does, as the land mode has
// it: the question stands beside the task's id and title wherever it is
// shown, so it does not repeat them.
func gateQuestion(f Facts) string {
	switch {
	case f.PR:
		return "Approve this change and open a pull request for it?"
	case f.Keep:
		return "Approve this change and keep it on its own branch?"
	case f.Target != "":
		return "Approve this change and land it on " + f.Target + "?"
	}
	return "Approve this change and land it?"
}

// NoChangeNote ends the summary of a completion that changed no file.
const NoChangeNote = "(no file changed)"

// NoHumanSummary is the summary of a task that would have waited for a
// human, had its policy (human: false) allowed one.
const NoHumanSummary = "needed a human but none was allowed"

// noHuman fails a task that would wait for a human when none may be
// asked: whatever would have asked (the agent, a gate, a failing check, a
// landing's conflict or refusal). The work stays parked and the question
// is kept, flat and in the details, for whoever looks.
func noHuman(e Ending) Ending {
	texts, asker, why := QuestionTexts(e.Ask), "The agent asked", e.Note
	e.Note = NoHumanSummary + " (human: false)"
	if e.Outcome != NeedsInput && why != "" { // not the agent's question: say what would have asked
		e.Note, asker = e.Note+": "+why, "It would have asked"
	}
	e.Summary, e.Details = NoHumanSummary, noHumanDetails(asker, e.Result, texts, e.Context)
	e.Outcome, e.State, e.Notify = Failed, task.Failed, task.EventTaskFailed
	e.Ask, e.Repend, e.Flat = nil, "", firstOf(texts...)
	return e
}

// checksFailed reopens the task so that the same session fixes what the
// check found (the next run's prompt says so); after the last round, a
// human decides.
func checksFailed(f Facts) Ending {
	e, last := f.Prior, f.Checks[len(f.Checks)-1]
	e.Outcome, e.Fate, e.State, e.Notify, e.Checks = CheckFailed, KeepWork, task.Open, "", f.Checks
	e.Note = fmt.Sprintf("check failed (round %d of %d): %s exited %d", last.Round, f.Rounds, last.Command, last.ExitCode)
	e.Summary = e.Note
	if last.Round < f.Rounds {
		e.Note += "; the agent fixes it"
		return e
	}
	return askChecks(e, f, last)
}

// askChecks asks the human about work whose check still fails: land it
// anyway, keep it on its branch, or guide the agent.
func askChecks(e Ending, f Facts, last task.Event) Ending {
	e.Outcome, e.Fate, e.State, e.Notify = CheckFailed, KeepWork, task.AwaitingInput, task.EventInputRequested
	e.Note = firstOf(e.Note, "gave up on a failing check") + "; a human decides"
	e.Ask, e.Context = []task.Question{checkQuestion(f)}, checkContext(last, f.Rounds)
	return e
}

// conflicted reopens the task so that the same session resolves the
// conflict its rebase stopped on; the next run's prompt says so. After
// the last round (an agent that reports completed and leaves the
// conflict as it was, whatever its paths, however often the worker died
// in between), a human is asked.
func conflicted(f Facts) Ending {
	e := f.Prior
	e.Outcome, e.Fate, e.State, e.Notify = Conflict, KeepWork, task.Open, ""
	e.Note = conflictNote(f.Target, f.Paths)
	e.Summary = e.Note
	if f.Round >= f.Rounds {
		e.State, e.Notify = task.AwaitingInput, task.EventInputRequested
		e.Summary = fmt.Sprintf("landing on %s conflicts in %s; the agent could not resolve it", f.Target,
			strings.Join(f.Paths, ", "))
		e.Ask = []task.Question{{Header: "Conflict", Type: task.FreeformQuestion, Question: fmt.Sprintf(
			"The agent could not resolve the conflict landing on %s (%s). Resolve it in %s, then answer "+
				"with a few words for the agent, such as \"resolved\": its session goes on with them, and "+
				"the work is landed again.", f.Target, strings.Join(f.Paths, ", "), f.Worktree)}}
	}
	return e
}

// conflictNote is a conflict's note in the history, which counts the
// rounds (see conflictRound).
func conflictNote(target string, paths []string) string {
	return fmt.Sprintf("landing on %s conflicts in %s; the agent resolves it", target, strings.Join(paths, ", "))
}

// conflictRound is the round a landing conflict of t meets now: one past
// the conflicts its history records since its work last landed or a
// human last answered. A note of each, not the same note twice in a row:
// the paths change as the target moves, and recoveries note in between.
func ConflictRound(t *task.Task) int {
	n := 1
	for _, ev := range t.History {
		switch {
		case ev.Kind == task.EventCommit || ev.Kind == task.EventInputReceived:
			n = 1
		case ev.Kind == task.EventState && strings.HasPrefix(ev.Text, "landing on ") &&
			strings.HasSuffix(ev.Text, "; the agent resolves it"):
			n++
		}
	}
	return n
}

// held asks the human what to do with finished work that landing would
// overwrite their uncommitted changes with.
func held(f Facts) Ending {
	e := f.Prior
	e.Outcome, e.Fate, e.State, e.Notify = Held, KeepWork, task.AwaitingInput, task.EventInputRequested
	why := f.Reason
	if len(f.Paths) > 0 {
		why += ": " + strings.Join(f.Paths, ", ") // the user's files in the way, named
	}
	e.Note = "landing refused: " + why
	e.Ask = []task.Question{f.Question}
	e.Context = fmt.Sprintf(RefusedContext+"%s on %s in %s: %s", f.ID, f.Target, f.Dir, why)
	return repend(e, f.Asked)
}

// RefusedContext begins the context of a landing git refused.
const RefusedContext = "git refused to land "

// repend is e waiting again on asked, the landing question answered
// "land" before, when the same cause came back (the same files still in
// the way, the key still unusable): a refusal never asks or notifies twice.
func repend(e Ending, asked *task.Question) Ending {
	if q := asked; q != nil && len(q.Answer) > 0 && q.Answer[0] == LandNow && q.Context == e.Context {
		e.Ask[0].ID, e.Repend = q.ID, q.ID
	}
	return e
}

// signHeld keeps finished work whose commit git could not sign as the
// user's git config asks (commit.gpgsign: a key missing, locked or
// unknown): not the agent's error, and nothing lands unsigned. It waits
// with git's words until the key is usable, and bh land lands it.
func signHeld(f Facts) Ending {
	e := f.Prior
	e.Outcome, e.Fate, e.State, e.Notify = Held, KeepWork, task.AwaitingInput, task.EventInputRequested
	e.Note = "landing stopped: " + SignNote + ": " + firstLineOf(f.Cause)
	e.Summary = e.Note
	e.Ask = []task.Question{f.Question}
	e.Context = fmt.Sprintf("%s, landing %s on %s:\n\n%s", SignNote, f.ID, f.Target, f.Cause)
	return repend(e, f.Asked)
}

// SignNote is why signed landing waits.
const SignNote = "git could not sign the commit as your git config asks (commit.gpgsign)"
