// Package ending is the one decision of what becomes of a task when
// something happens to it (its run's result, an error or outage, a
// landing's trouble, a human's answer, a pull request's review): a pure
// table from Facts to an Ending, with human: false applied once after it.
// The worker gathers the facts and carries the ending out.
package ending

import (
	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

// Fate is what happens to the work in a task's worktree.
type Fate string

const (
	LandWork    Fate = "land"    // commit it and land it on the target branch
	DiscardWork Fate = "discard" // remove the worktree and its branch
	KeepWork    Fate = "keep"    // leave the worktree as it is, snapshotted under refs/bh/parked/<id>
)

// Ending is how a run ends. It is decided once (Decide), written to the
// run's journal, and carried out in one place (the worker's end), so that every ending
// records its history, sends its notification and reports in the same
// order, and a worker killed half-way through carries it out again on restart.
type Ending struct {
	Outcome Outcome    `json:"outcome"`
	Fate    Fate       `json:"fate"`
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
	Flat    string   `json:"flat,omitempty"`   // a question kept flat on a task that may not ask (human: false)
	Notify  string   `json:"notify,omitempty"` // the event sent once the task records it; "" sends none
	Paused  string   `json:"paused,omitempty"` // the usage limit that cut the run short: a limit.paused event
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
	PR        string       `json:"pr,omitempty"` // the pull request the work went to (land: pr)
	// Spend is what the run cost, recorded on its run.finished; Crossed,
	// the budget.crossed event that stopped it, recorded after it.
	Spend   agent.Spend `json:"spend,omitzero"`
	Crossed *task.Event `json:"crossed,omitempty"`
	// Next says what the worker does once a human's answer settled the
	// task, to whoever answered (bh respond); "" for every other ending.
	Next string `json:"-"`
}
