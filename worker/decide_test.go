package worker

import (
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/notify"
)

// TestDecideEndingTable lists every ending a run can have: what happened,
// under which policy, and the ending decideEnding builds for it.
func TestDecideEndingTable(t *testing.T) {
	human := task.HumanPolicy{Allowed: true}
	noHuman := task.HumanPolicy{}
	done := agent.Result{Status: agent.StatusCompleted, Summary: "did it"}
	asks := agent.Result{Status: agent.StatusNeedsInput, Summary: "asks", Question: "Which?"}
	landQ := task.Question{Header: landTitle, Type: task.ChoiceQuestion, Question: "land?"}
	answeredLand := &task.Question{ID: "q1", Answer: []string{landNow},
		Context: "git refused to land tm-a on main in /r: would be overwritten: README"}
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
		{"landing: land", facts{What: humanLanding, Landing: landNow, By: "ann"},
			want{Completed, landWork, task.Closed, notify.EventTaskCompleted, 0, "", ""}},
		{"landing: keep", facts{What: humanLanding, Landing: landKeep, By: "ann"},
			want{Kept, landWork, task.Closed, notify.EventTaskCompleted, 0, "", ""}},
		{"landing conflicts", facts{What: landConflict, Target: "main", Paths: []string{"a.go"}},
			want{Conflict, keepWork, task.Open, "", 0, "", ""}},
		{"landing conflicts again", facts{What: landConflict, Target: "main", Paths: []string{"a.go"}, Again: true},
			want{Conflict, keepWork, task.AwaitingInput, notify.EventInputRequested, 1, "", ""}},
		{"landing refused", facts{What: landRefused, ID: "tm-a", Target: "main", Dir: "/r", Reason: "would be overwritten",
			Paths: []string{"README"}, Question: landQ},
			want{Held, keepWork, task.AwaitingInput, notify.EventInputRequested, 1, "", ""}},
		{"landing refused again, same cause", facts{What: landRefused, ID: "tm-a", Target: "main", Dir: "/r",
			Reason: "would be overwritten", Paths: []string{"README"}, Question: landQ, Asked: answeredLand},
			want{Held, keepWork, task.AwaitingInput, notify.EventInputRequested, 1, "q1", ""}},
		{"landing refused again, other files", facts{What: landRefused, ID: "tm-a", Target: "main", Dir: "/r",
			Reason: "would be overwritten", Paths: []string{"go.mod"}, Question: landQ, Asked: answeredLand},
			want{Held, keepWork, task.AwaitingInput, notify.EventInputRequested, 1, "", ""}},
	} {
		e := decideEnding(c.f)
		got := want{e.Outcome, e.Fate, e.State, e.Notify, len(e.Ask), e.Repend, e.Status}
		if got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}
