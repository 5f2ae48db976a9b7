package worker

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/landing"
	"github.com/bh-tracker/bh/worker/notify"
)

// TestDecideEndingTable lists every ending a run can have: what happened,
// under which policy, and the ending decideEnding builds for it.
func TestDecideEndingTable(t *testing.T) {
	human := task.HumanPolicy{Allowed: true}
	noHuman := task.HumanPolicy{}
	done := agent.Result{Status: agent.StatusCompleted, Summary: "did it"}
	asks := agent.Result{Status: agent.StatusNeedsInput, Summary: "asks", Question: "Which?"}
	landQ := landing.Question("tm-a", "main", "bh/tm-a")
	answeredLand := &task.Question{ID: "q1", Answer: []string{landing.Now},
		Context: "git refused to land tm-a on main in /r: would be overwritten: README"}
	pass := task.Event{Kind: task.EventCheck, Command: "go vet ./...", Round: 1}
	fail := func(round int) []task.Event {
		return []task.Event{pass, {Kind: task.EventCheck, Command: "go test ./...", ExitCode: 1, Round: round}}
	}
	completedRun := ending{Outcome: Completed, Fate: landWork, State: task.Closed, Status: "completed", Result: done}
	failing := &fail(2)[1]
	type want struct {
		outcome Outcome
		fate    fate
		state   task.State
		notify  string
		asks    int
		repend  string
		status  string
	}
	for _, c := range []struct {
		name string
		f    facts
		want want
	}{
		{"completed", facts{What: agentAnswered, Result: done, Policy: human},
			want{Completed, landWork, task.Closed, notify.EventTaskCompleted, 0, "", "completed"}},
		{"completed, land: branch", facts{What: agentAnswered, Result: done, Policy: human, Keep: true},
			want{Kept, landWork, task.Closed, notify.EventTaskCompleted, 0, "", "completed"}},
		{"completed, land: pr", facts{What: agentAnswered, Result: done, Policy: human, PR: true},
			want{InReview, landWork, task.InReview, notify.EventTaskCompleted, 0, "", "completed"}},
		{"completed, for review", facts{What: agentAnswered, Result: done, Policy: human, Review: "gate: approval"},
			want{Gated, keepWork, task.AwaitingInput, notify.EventInputRequested, 1, "", "completed"}},
		{"completed, for review, human: false", facts{What: agentAnswered, Result: done, Policy: noHuman, Review: "gate: approval"},
			want{Failed, keepWork, task.Failed, notify.EventTaskFailed, 0, "", "completed"}},
		{"failed", facts{What: agentAnswered, Result: agent.Result{Status: agent.StatusFailed}, Policy: human},
			want{Failed, discardWork, task.Failed, notify.EventTaskFailed, 0, "", "failed"}},
		{"blocked", facts{What: agentAnswered, Result: agent.Result{Status: agent.StatusBlocked}, Policy: human},
			want{Blocked, keepWork, task.Blocked, notify.EventTaskBlocked, 0, "", "blocked"}},
		{"needs input", facts{What: agentAnswered, Result: asks, Policy: human},
			want{NeedsInput, keepWork, task.AwaitingInput, notify.EventInputRequested, 1, "", "needs_input"}},
		{"needs input, human: false", facts{What: agentAnswered, Result: asks, Policy: noHuman},
			want{Failed, keepWork, task.Failed, notify.EventTaskFailed, 0, "", "needs_input"}},
		{"an unknown status", facts{What: agentAnswered, Result: agent.Result{Status: "done"}, Policy: human},
			want{AgentError, keepWork, task.Failed, notify.EventTaskFailed, 0, "", "error"}},
		{"agent error", facts{What: agentFailed, Cause: "garbage"},
			want{AgentError, keepWork, task.Failed, notify.EventTaskFailed, 0, "", "error"}},
		{"agent outage", facts{What: agentOutage, Outage: agent.OutageAuth, Cause: "401"},
			want{Unavailable, keepWork, task.Open, "", 0, "", "error"}},
		{"stopped by the worker", facts{What: runStopped, Cause: "interrupt"},
			want{Stopped, keepWork, task.Open, notify.EventTaskStopped, 0, "", "stopped"}},
		{"a dead worker's run", facts{What: runRecovered, Cause: "recovered"},
			want{Stopped, keepWork, task.Open, notify.EventTaskStopped, 0, "", "lost"}},
		{"taken back by a human", facts{What: runLost},
			want{Stopped, keepWork, "", notify.EventTaskStopped, 0, "", "stopped"}},
		{"setup failed", facts{What: setupFailed, Cause: "npm ci failed"},
			want{SetupFailed, keepWork, task.Failed, notify.EventTaskFailed, 0, "", ""}},
		{"gate approved", facts{What: humanApproved, By: "ann"},
			want{Completed, landWork, task.Closed, notify.EventTaskCompleted, 0, "", ""}},
		{"landing: land", facts{What: humanLanding, Landing: landing.Now, By: "ann"},
			want{Completed, landWork, task.Closed, notify.EventTaskCompleted, 0, "", ""}},
		{"landing: keep", facts{What: humanLanding, Landing: landing.Keep, By: "ann"},
			want{Kept, landWork, task.Closed, notify.EventTaskCompleted, 0, "", ""}},
		{"landing conflicts", facts{What: landConflict, Target: "main", Paths: []string{"a.go"}, Round: 2, Rounds: 3, Policy: human},
			want{Conflict, keepWork, task.Open, "", 0, "", ""}},
		{"landing conflicts, human: false", facts{What: landConflict, Target: "main", Paths: []string{"a.go"}, Round: 2, Rounds: 3,
			Policy: noHuman}, want{Conflict, keepWork, task.Open, "", 0, "", ""}},
		{"landing conflicts, last round", facts{What: landConflict, Target: "main", Paths: []string{"a.go"}, Round: 3, Rounds: 3,
			Policy: human}, want{Conflict, keepWork, task.AwaitingInput, notify.EventInputRequested, 1, "", ""}},
		{"landing conflicts, last round, human: false", facts{What: landConflict, Target: "main", Paths: []string{"a.go"},
			Round: 3, Rounds: 3, Policy: noHuman}, want{Failed, keepWork, task.Failed, notify.EventTaskFailed, 0, "", ""}},
		{"landing refused", facts{What: landRefused, ID: "tm-a", Target: "main", Dir: "/r", Reason: "would be overwritten",
			Paths: []string{"README"}, Question: landQ, Policy: human},
			want{Held, keepWork, task.AwaitingInput, notify.EventInputRequested, 1, "", ""}},
		{"landing refused, human: false", facts{What: landRefused, ID: "tm-a", Target: "main", Dir: "/r", Reason: "would be overwritten",
			Paths: []string{"README"}, Question: landQ, Policy: noHuman},
			want{Failed, keepWork, task.Failed, notify.EventTaskFailed, 0, "", ""}},
		{"landing refused again, same cause", facts{What: landRefused, ID: "tm-a", Target: "main", Dir: "/r",
			Reason: "would be overwritten", Paths: []string{"README"}, Question: landQ, Asked: answeredLand, Policy: human},
			want{Held, keepWork, task.AwaitingInput, notify.EventInputRequested, 1, "q1", ""}},
		{"landing refused again, same cause, human: false", facts{What: landRefused, ID: "tm-a", Target: "main", Dir: "/r",
			Reason: "would be overwritten", Paths: []string{"README"}, Question: landQ, Asked: answeredLand, Policy: noHuman},
			want{Failed, keepWork, task.Failed, notify.EventTaskFailed, 0, "", ""}},
		{"landing refused again, other files", facts{What: landRefused, ID: "tm-a", Target: "main", Dir: "/r",
			Reason: "would be overwritten", Paths: []string{"go.mod"}, Question: landQ, Asked: answeredLand, Policy: human},
			want{Held, keepWork, task.AwaitingInput, notify.EventInputRequested, 1, "", ""}},
		{"failed while fixing a check, human: false", facts{What: agentAnswered, Result: agent.Result{Status: agent.StatusFailed},
			Policy: noHuman, Failing: failing, Rounds: 3},
			want{Failed, keepWork, task.Failed, notify.EventTaskFailed, 0, "", "failed"}},
		{"check failed, rounds left", facts{What: checkFailed, Prior: completedRun, Checks: fail(1), Rounds: 3, Policy: human},
			want{CheckFailed, keepWork, task.Open, "", 0, "", "completed"}},
		{"check failed, last round", facts{What: checkFailed, Prior: completedRun, Checks: fail(3), Rounds: 3, Policy: human},
			want{CheckFailed, keepWork, task.AwaitingInput, notify.EventInputRequested, 1, "", "completed"}},
		{"check failed, last round, human: false", facts{What: checkFailed, Prior: completedRun, Checks: fail(3), Rounds: 3,
			Policy: noHuman}, want{Failed, keepWork, task.Failed, notify.EventTaskFailed, 0, "", "completed"}},
		{"completed while fixing a check", facts{What: agentAnswered, Result: done, Policy: human, Failing: failing, Rounds: 3},
			want{Completed, landWork, task.Closed, notify.EventTaskCompleted, 0, "", "completed"}},
		{"failed while fixing a check", facts{What: agentAnswered, Result: agent.Result{Status: agent.StatusFailed},
			Policy: human, Failing: failing, Rounds: 3},
			want{CheckFailed, keepWork, task.AwaitingInput, notify.EventInputRequested, 1, "", "failed"}},
		{"needs input while fixing a check", facts{What: agentAnswered, Result: asks, Policy: human, Failing: failing, Rounds: 3},
			want{NeedsInput, keepWork, task.AwaitingInput, notify.EventInputRequested, 2, "", "needs_input"}},
		{"checks: land anyway", facts{What: humanChecked, Landing: landing.CheckLand, By: "ann"},
			want{Completed, landWork, task.Closed, notify.EventTaskCompleted, 0, "", ""}},
		{"checks: keep on branch", facts{What: humanChecked, Landing: landing.CheckKeep, By: "ann"},
			want{Kept, landWork, task.Closed, notify.EventTaskCompleted, 0, "", ""}},
	} {
		e := decideEnding(c.f)
		got := want{e.Outcome, e.Fate, e.State, e.Notify, len(e.Ask), e.Repend, e.Status}
		if got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
		// human: false: nothing ever waits on a human, and what would
		// have been asked is kept, flat.
		if !c.f.Policy.Allowed && c.f.What != humanApproved && c.f.What != humanLanding && c.f.What != humanChecked {
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
	e := unasked(task.HumanPolicy{}, ending{State: task.AwaitingInput, Note: "pull request needs a human",
		Ask: []task.Question{{Question: "The pull request was closed. Guidance?", Type: task.FreeformQuestion}}})
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
	e := decideEnding(facts{What: checkFailed, Checks: checks, Rounds: 3, ID: "tm-a", Target: "main", Branch: "bh/tm-a",
		Policy: task.HumanPolicy{Allowed: true}})
	if len(e.Checks) != 1 || len(e.Ask) != 1 || !landing.IsCheckQuestion(&e.Ask[0]) {
		t.Fatalf("ending %+v", e)
	}
	if !strings.Contains(e.Context, "make test exited 2 in round 3 of 3") || !strings.Contains(e.Context, "FAIL: x") {
		t.Errorf("context %q", e.Context)
	}
	if labels := e.Ask[0].Labels(); len(labels) != 2 || labels[0] != landing.CheckLand || labels[1] != landing.CheckKeep {
		t.Errorf("options %v", labels)
	}
	if !decideEnding(facts{What: humanChecked, Landing: landing.CheckLand}).Unchecked ||
		!decideEnding(facts{What: humanChecked, Landing: landing.CheckKeep}).Unchecked {
		t.Error("a human's answer to the checks question does not skip them")
	}
}

// TestDecideNoChange: a completion that changed no file still lands (the
// task file), and says so in its summary and its history's note.
func TestDecideNoChange(t *testing.T) {
	done := agent.Result{Status: agent.StatusCompleted, Summary: "nothing to do"}
	for _, f := range []facts{
		{What: agentAnswered, Result: done, Policy: task.HumanPolicy{Allowed: true}, NoChange: true},
		{What: agentAnswered, Result: done, Policy: task.HumanPolicy{Allowed: true}, NoChange: true, Keep: true, Branch: "bh/tm-a"},
	} {
		e := decideEnding(f)
		if e.Fate != landWork || e.Summary != "nothing to do "+NoChangeNote || !strings.Contains(e.Note, "no change to any file") {
			t.Errorf("%+v: summary %q, note %q", f, e.Summary, e.Note)
		}
	}
	if e := decideEnding(facts{What: agentAnswered, Result: done, Policy: task.HumanPolicy{Allowed: true}}); e.Summary != "" || e.Note != "" {
		t.Errorf("a change: summary %q, note %q", e.Summary, e.Note)
	}
}
