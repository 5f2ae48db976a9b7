package worker

import (
	"time"

	"github.com/bh-tracker/bh/worker/ending"
)

// Kind is what an Event reports.
type Kind string

// Progress events. The worker never prints: cmd turns these into lines.
const (
	Started   Kind = "started"   // a task was claimed and its agent starts
	Finished  Kind = "finished"  // a run ended; Outcome says how
	Waiting   Kind = "waiting"   // nothing is ready; the worker idles
	Recovered Kind = "recovered" // a dead worker's task went back to open
	Answered  Kind = "answered"  // a human answered (bh demo narrates it)
	Expired   Kind = "expired"   // questions timed out; Outcome says what onTimeout did
	Step      Kind = "step"      // a running agent made a tool call; Summary says which
	Paused    Kind = "paused"    // an agent-wide outage holds new runs back for Elapsed; Summary says why
	Synced    Kind = "synced"    // an autoSync pulled or pushed; Summary says what
	Warning   Kind = "warning"   // trouble that does not stop the worker (a notifier failing); Summary says what
)

// Kinds lists every Kind: bh worker --json documents them from this list,
// and a test checks it against the constants.
var Kinds = []Kind{Started, Finished, Waiting, Recovered, Answered, Expired, Step, Paused, Synced, Warning}

// Event is one step of the worker's progress.
type Event struct {
	Kind    Kind
	Task    string
	Title   string
	Outcome ending.Outcome
	Resume  bool   // Started: the agent resumes an earlier session
	Session string // the agent session
	Summary string
	// Questions are the texts of the questions the task now waits on
	// (needs_input, blocked, conflict); Question is the first of them.
	Question  string
	Questions []string
	Commit    string   // Completed: the commit made
	PR        string   // InReview: the pull request's URL
	Paths     []string // the agent's changed paths (committed, rolled back or parked)
	Elapsed   time.Duration
	Attempt   int   // Finished: the run's attempt of a task tried side by side (worker/attempts), else 0
	Err       error // AgentError: what went wrong
}
