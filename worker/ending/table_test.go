package ending

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

// TestDecideEndingTable lists every ending a run can have: what happened,
// under which policy, and the ending Decide builds for it.
func TestDecideEndingTable(t *testing.T) {
	human := task.HumanPolicy{Allowed: true}
	noHuman := task.HumanPolicy{}
	done := agent.Result{Status: agent.StatusCompleted, Summary: "did it"}
	asks := agent.Result{Status: agent.StatusNeedsInput, Summary: "asks", Question: "Which?"}
	landQ := task.Question{Header: LandTitle, Type: task.ChoiceQuestion, Question: "land?"}
	answeredLand := &task.Question{ID: "q1", Answer: []string{LandNow},
		Context: "git refused to land tm-a on main in /r: would be overwritten: README"}
	pass := task.Event{Kind: task.EventCheck, Command: "go vet ./...", Round: 1}
	fail := func(round int) []task.Event {
		return []task.Event{pass, {Kind: task.EventCheck, Command: "go test ./...", ExitCode: 1, Round: round}}
	}
	completedRun := Ending{Outcome: Completed, Fate: LandWork, State: task.Closed, Status: "completed", Result: done}
	failing := &fail(2)[1]
	type want struct {
		outcome Outcome
		Fate    Fate
		state   task.State
		notify  string
		asks    int
		repend  string
		status  string
	}
	for _, c := range []struct {
		name string
		f    Facts
		want want
	}{
		{"completed", Facts{What: AgentAnswered, Result: done, Policy: human},
			want{Completed, LandWork, task.Closed, task.EventTaskCompleted, 0, "", "completed"}},
		{"completed, land: branch", Facts{What: AgentAnswered, Result: done, Policy: human, Keep: true},
			want{Kept, LandWork, task.Closed, task.EventTaskCompleted, 0, "", "completed"}},
		{"completed, land: pr", Facts{What: AgentAnswered, Result: done, Policy: human, PR: true},
			want{InReview, LandWork, task.InReview, task.EventTaskCompleted, 0, "", "completed"}},
		{"completed, for review", Facts{What: AgentAnswered, Result: done, Policy: human, Review: "gate: approval"},
			want{Gated, KeepWork, task.AwaitingInput, task.EventInputRequested, 1, "", "completed"}},
		{"completed, for review, human: false", Facts{What: AgentAnswered, Result: done, Policy: noHuman, Review: "gate: approval"},
			want{Failed, KeepWork, task.Failed, task.EventTaskFailed, 0, "", "completed"}},
		{"failed", Facts{What: AgentAnswered, Result: agent.Result{Status: agent.StatusFailed}, Policy: human},
			want{Failed, DiscardWork, task.Failed, task.EventTaskFailed, 0, "", "failed"}},
		{"blocked", Facts{What: AgentAnswered, Result: agent.Result{Status: agent.StatusBlocked}, Policy: human},
			want{Blocked, KeepWork, task.Blocked, task.EventTaskBlocked, 0, "", "blocked"}},
		{"needs input", Facts{What: AgentAnswered, Result: asks, Policy: human},
			want{NeedsInput, KeepWork, task.AwaitingInput, task.EventInputRequested, 1, "", "needs_input"}},
		{"needs input, human: false", Facts{What: AgentAnswered, Result: asks, Policy: noHuman},
			want{Failed, KeepWork, task.Failed, task.EventTaskFailed, 0, "", "needs_input"}},
		{"planned", Facts{What: AgentAnswered, Result: done, Policy: human, Planning: true, Review: "gate: approval"},
			want{NeedsInput, KeepWork, task.AwaitingInput, task.EventInputRequested, 1, "", "completed"}},
		{"planned, human: false", Facts{What: AgentAnswered, Result: done, Policy: noHuman, Planning: true},
			want{Failed, KeepWork, task.Failed, task.EventTaskFailed, 0, "", "completed"}},
		{"planning, needs input", Facts{What: AgentAnswered, Result: asks, Policy: human, Planning: true},
			want{NeedsInput, KeepWork, task.AwaitingInput, task.EventInputRequested, 1, "", "needs_input"}},
		{"planning, wrote files", Facts{What: AgentAnswered, Result: done, Policy: human, Planning: true, Wrote: []string{"a.go"}},
			want{Failed, DiscardWork, task.Failed, task.EventTaskFailed, 0, "", "completed"}},
		{"an unknown status", Facts{What: AgentAnswered, Result: agent.Result{Status: "done"}, Policy: human},
			want{AgentError, KeepWork, task.Failed, task.EventTaskFailed, 0, "", "error"}},
		{"agent error", Facts{What: AgentFailed, Cause: "garbage"},
			want{AgentError, KeepWork, task.Failed, task.EventTaskFailed, 0, "", "error"}},
		{"agent outage", Facts{What: AgentOutage, Outage: agent.OutageAuth, Cause: "401"},
			want{Unavailable, KeepWork, task.Open, "", 0, "", "error"}},
		{"usage limit with its reset: the session goes on after it", Facts{What: AgentOutage, Outage: agent.OutageLimit,
			Cause: "429", Session: "s1", Paused: "five-hour usage limit; resets 2026-11-28T15:00:00Z"},
			want{Unavailable, KeepWork, task.Open, task.EventLimitPaused, 0, "", "error"}},
		{"stopped by the worker", Facts{What: RunStopped, Cause: "interrupt"},
			want{Stopped, KeepWork, task.Open, task.EventTaskStopped, 0, "", "stopped"}},
		{"a dead worker's run", Facts{What: RunRecovered, Cause: "recovered"},
			want{Stopped, KeepWork, task.Open, task.EventTaskStopped, 0, "", "lost"}},
		{"taken back by a human", Facts{What: RunLost},
			want{Stopped, KeepWork, "", task.EventTaskStopped, 0, "", "stopped"}},
		{"setup failed", Facts{What: SetupError, Cause: "npm ci failed"},
			want{SetupFailed, KeepWork, task.Failed, task.EventTaskFailed, 0, "", ""}},
		{"gate approved", Facts{What: HumanApproved, By: "ann"},
			want{Completed, LandWork, task.Closed, task.EventTaskCompleted, 0, "", ""}},
		{"landing: land", Facts{What: HumanLanding, Landing: LandNow, By: "ann"},
			want{Completed, LandWork, task.Closed, task.EventTaskCompleted, 0, "", ""}},
		{"landing: keep", Facts{What: HumanLanding, Landing: LandKeep, By: "ann"},
			want{Kept, LandWork, task.Closed, task.EventTaskCompleted, 0, "", ""}},
		{"landing conflicts", Facts{What: LandConflict, Target: "main", Paths: []string{"a.go"}, Round: 2, Rounds: 3, Policy: human},
			want{Conflict, KeepWork, task.Open, "", 0, "", ""}},
		{"landing conflicts, human: false", Facts{What: LandConflict, Target: "main", Paths: []string{"a.go"}, Round: 2, Rounds: 3,
			Policy: noHuman}, want{Conflict, KeepWork, task.Open, "", 0, "", ""}},
		{"landing conflicts, last round", Facts{What: LandConflict, Target: "main", Paths: []string{"a.go"}, Round: 3, Rounds: 3,
			Policy: human}, want{Conflict, KeepWork, task.AwaitingInput, task.EventInputRequested, 1, "", ""}},
		{"landing conflicts, last round, human: false", Facts{What: LandConflict, Target: "main", Paths: []string{"a.go"},
			Round: 3, Rounds: 3, Policy: noHuman}, want{Failed, KeepWork, task.Failed, task.EventTaskFailed, 0, "", ""}},
		{"landing refused", Facts{What: LandRefused, ID: "tm-a", Target: "main", Dir: "/r", Reason: "would be overwritten",
			Paths: []string{"README"}, Question: landQ, Policy: human},
			want{Held, KeepWork, task.AwaitingInput, task.EventInputRequested, 1, "", ""}},
		{"landing refused, human: false", Facts{What: LandRefused, ID: "tm-a", Target: "main", Dir: "/r", Reason: "would be overwritten",
			Paths: []string{"README"}, Question: landQ, Policy: noHuman},
			want{Held, KeepWork, task.AwaitingInput, task.EventInputRequested, 1, "", ""}},
		{"landing refused again, same cause", Facts{What: LandRefused, ID: "tm-a", Target: "main", Dir: "/r",
			Reason: "would be overwritten", Paths: []string{"README"}, Question: landQ, Asked: answeredLand, Policy: human},
			want{Held, KeepWork, task.AwaitingInput, task.EventInputRequested, 1, "q1", ""}},
		{"landing refused again, same cause, human: false", Facts{What: LandRefused, ID: "tm-a", Target: "main", Dir: "/r",
			Reason: "would be overwritten", Paths: []string{"README"}, Question: landQ, Asked: answeredLand, Policy: noHuman},
			want{Held, KeepWork, task.AwaitingInput, task.EventInputRequested, 1, "q1", ""}},
		{"signing failed", Facts{What: SignFailure, ID: "tm-a", Target: "main", Cause: "error: gpg failed to sign the data",
			Question: landQ, Policy: human}, want{Held, KeepWork, task.AwaitingInput, task.EventInputRequested, 1, "", ""}},
		{"signing failed, human: false", Facts{What: SignFailure, ID: "tm-a", Target: "main",
			Cause: "error: gpg failed to sign the data", Question: landQ, Policy: noHuman},
			want{Held, KeepWork, task.AwaitingInput, task.EventInputRequested, 1, "", ""}},
		{"landing refused again, other files", Facts{What: LandRefused, ID: "tm-a", Target: "main", Dir: "/r",
			Reason: "would be overwritten", Paths: []string{"go.mod"}, Question: landQ, Asked: answeredLand, Policy: human},
			want{Held, KeepWork, task.AwaitingInput, task.EventInputRequested, 1, "", ""}},
		{"failed while fixing a check, human: false", Facts{What: AgentAnswered, Result: agent.Result{Status: agent.StatusFailed},
			Policy: noHuman, Failing: failing, Rounds: 3},
			want{Failed, KeepWork, task.Failed, task.EventTaskFailed, 0, "", "failed"}},
		{"check failed, rounds left", Facts{What: CheckFailure, Prior: completedRun, Checks: fail(1), Rounds: 3, Policy: human},
			want{CheckFailed, KeepWork, task.Open, "", 0, "", "completed"}},
		{"check failed, last round", Facts{What: CheckFailure, Prior: completedRun, Checks: fail(3), Rounds: 3, Policy: human},
			want{CheckFailed, KeepWork, task.AwaitingInput, task.EventInputRequested, 1, "", "completed"}},
		{"check failed, last round, human: false", Facts{What: CheckFailure, Prior: completedRun, Checks: fail(3), Rounds: 3,
			Policy: noHuman}, want{Failed, KeepWork, task.Failed, task.EventTaskFailed, 0, "", "completed"}},
		{"completed while fixing a check", Facts{What: AgentAnswered, Result: done, Policy: human, Failing: failing, Rounds: 3},
			want{Completed, LandWork, task.Closed, task.EventTaskCompleted, 0, "", "completed"}},
		{"failed while fixing a check", Facts{What: AgentAnswered, Result: agent.Result{Status: agent.StatusFailed},
			Policy: human, Failing: failing, Rounds: 3},
			want{CheckFailed, KeepWork, task.AwaitingInput, task.EventInputRequested, 1, "", "failed"}},
		{"needs input while fixing a check", Facts{What: AgentAnswered, Result: asks, Policy: human, Failing: failing, Rounds: 3},
			want{NeedsInput, KeepWork, task.AwaitingInput, task.EventInputRequested, 2, "", "needs_input"}},
		{"checks: land anyway", Facts{What: HumanChecked, Landing: CheckLand, By: "ann"},
			want{Completed, LandWork, task.Closed, task.EventTaskCompleted, 0, "", ""}},
		{"checks: keep on branch", Facts{What: HumanChecked, Landing: CheckKeep, By: "ann"},
			want{Kept, LandWork, task.Closed, task.EventTaskCompleted, 0, "", ""}},
		{"pull request needs a human", Facts{What: PRReview, Reason: "Guidance?", Policy: human},
			want{"", "", task.AwaitingInput, "", 1, "", ""}},
		{"budget crossed", Facts{What: BudgetCrossed, Spent: 2.41, Budget: 2, Policy: human},
			want{OverBudget, KeepWork, task.AwaitingInput, task.EventBudgetCrossed, 1, "", "stopped"}},
		{"budget crossed, human: false", Facts{What: BudgetCrossed, Spent: 2.41, Budget: 2, Policy: noHuman},
			want{Failed, KeepWork, task.Failed, task.EventTaskFailed, 0, "", "stopped"}},
		{"budget: no", Facts{What: HumanBudget, By: "ann", Policy: human},
			want{Stopped, KeepWork, task.Failed, task.EventTaskFailed, 0, "", ""}},
	} {
		e := Decide(c.f)
		got := want{e.Outcome, e.Fate, e.State, e.Notify, len(e.Ask), e.Repend, e.Status}
		if got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
		// human: false: nothing waits on a human but finished work that
		// something outside the agent keeps from landing (it waits for
		// that to go, and says so), and what would have been asked is
		// kept, flat.
		obstacle := c.f.What == LandRefused || c.f.What == SignFailure
		if obstacle && !c.f.Policy.Allowed && !strings.Contains(e.Note, "the finished work waits: bh land lands it") {
			t.Errorf("%s: human: false, its note does not say it waits: %q", c.name, e.Note)
		}
		if !c.f.Policy.Allowed && !obstacle && c.f.What != HumanApproved && c.f.What != HumanLanding && c.f.What != HumanChecked {
			if e.State == task.AwaitingInput || len(e.Ask) > 0 {
				t.Errorf("%s: human: false, yet it waits on a human: %+v", c.name, e)
			}
			if e.Summary == NoHumanSummary && e.Flat == "" {
				t.Errorf("%s: the question is lost: %+v", c.name, e)
			}
		}
	}
}

// TestPullRequestEscalationUnderHumanFalse: the pull request's escalation
// passes the same rule as every ending: a task that may not ask fails,
// its question kept flat.
func TestPullRequestEscalationUnderHumanFalse(t *testing.T) {
	e := Decide(Facts{What: PRReview, Reason: "The pull request was closed. Guidance?"})
	if e.State != task.Failed || e.Flat != "The pull request was closed. Guidance?" || len(e.Ask) != 0 ||
		!strings.Contains(e.Note, "pull request needs a human") {
		t.Fatalf("ending %+v", e)
	}
}

// TestDecideChecks: a failed round records every check run with the
// ending; the question carries the failing command and its output; either
// answer of the human's (land anyway, keep on branch) skips the checks.
func TestDecideChecks(t *testing.T) {
	checks := []task.Event{{Kind: task.EventCheck, Command: "make test", ExitCode: 2, Round: 3, Output: "FAIL: x"}}
	e := Decide(Facts{What: CheckFailure, Checks: checks, Rounds: 3, ID: "tm-a", Target: "main", Branch: "bh/tm-a",
		Policy: task.HumanPolicy{Allowed: true}})
	if len(e.Checks) != 1 || len(e.Ask) != 1 || e.Ask[0].Header != ChecksTitle {
		t.Fatalf("ending %+v", e)
	}
	if !strings.Contains(e.Context, "make test exited 2 in round 3 of 3") || !strings.Contains(e.Context, "FAIL: x") {
		t.Errorf("context %q", e.Context)
	}
	if labels := e.Ask[0].Labels(); len(labels) != 2 || labels[0] != CheckLand || labels[1] != CheckKeep {
		t.Errorf("options %v", labels)
	}
	if !Decide(Facts{What: HumanChecked, Landing: CheckLand}).Unchecked ||
		!Decide(Facts{What: HumanChecked, Landing: CheckKeep}).Unchecked {
		t.Error("a human's answer to the checks question does not skip them")
	}
}

// TestDecideNoChange: a completion that changed no file still lands (the
// task file), and says so in its summary and its history's note.
func TestDecideNoChange(t *testing.T) {
	done := agent.Result{Status: agent.StatusCompleted, Summary: "nothing to do"}
	for _, f := range []Facts{
		{What: AgentAnswered, Result: done, Policy: task.HumanPolicy{Allowed: true}, NoChange: true},
		{What: AgentAnswered, Result: done, Policy: task.HumanPolicy{Allowed: true}, NoChange: true, Keep: true, Branch: "bh/tm-a"},
	} {
		e := Decide(f)
		if e.Fate != LandWork || e.Summary != "nothing to do "+NoChangeNote || !strings.Contains(e.Note, "no change to any file") {
			t.Errorf("%+v: summary %q, note %q", f, e.Summary, e.Note)
		}
	}
	if e := Decide(Facts{What: AgentAnswered, Result: done, Policy: task.HumanPolicy{Allowed: true}}); e.Summary != "" || e.Note != "" {
		t.Errorf("a change: summary %q, note %q", e.Summary, e.Note)
	}
}

// TestSettledNext: what an answer that settles a task without the agent
// says comes next is the ending's own, one text a row.
func TestSettledNext(t *testing.T) {
	for _, c := range []struct {
		f    Facts
		next string
	}{
		{Facts{What: HumanApproved}, "approved: the worker lands its work as it is, without running the agent again"},
		{Facts{What: HumanLanding, Landing: LandNow}, "the worker lands its work, without running the agent again"},
		{Facts{What: HumanLanding, Landing: LandKeep, Branch: "bh/tm-a"},
			"the worker keeps its work on branch bh/tm-a, without running the agent again"},
		{Facts{What: HumanChecked, Landing: CheckLand},
			"the worker lands its work although its check fails, without running the agent again"},
		{Facts{What: HumanChecked, Landing: CheckKeep, Branch: "bh/tm-a"},
			"the worker keeps its work on branch bh/tm-a and ends the task, without running the agent again"},
		{Facts{What: AgentAnswered, Result: agent.Result{Status: agent.StatusCompleted}}, ""},
	} {
		if got := Decide(c.f).Next; got != c.next {
			t.Errorf("%d %s: next %q, want %q", c.f.What, c.f.Landing, got, c.next)
		}
	}
}

// A run the usage limit cut short keeps its session for the resumed run,
// and its ending records the limit (limit.paused).
func TestUsageLimitEndingKeepsTheSession(t *testing.T) {
	f := Facts{What: AgentOutage, Outage: agent.OutageLimit, Cause: "429", Session: "s1", Paused: "five-hour usage limit; resets …"}
	e := Decide(f)
	if e.Session != "s1" || e.Paused != f.Paused || e.Fate != KeepWork || e.Notify != task.EventLimitPaused {
		t.Fatalf("%+v", e)
	}
	if e := Decide(Facts{What: AgentOutage, Outage: agent.OutageLimit, Cause: "429"}); e.Notify != "" || e.Paused != "" {
		t.Fatalf("an unknown reset pauses nothing of its own: %+v", e)
	}
}
