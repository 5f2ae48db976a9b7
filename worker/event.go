package worker

import "time"

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

// Outcomes lists every Outcome, likewise.
var Outcomes = []Outcome{Completed, Failed, Blocked, NeedsInput, AgentError, Stopped, Conflict, Gated, Held, HookRefused,
	Kept, CheckFailed, InReview, Unavailable, SetupFailed, TimeoutFailed, TimeoutDeferred, TimeoutDefaults, TimeoutReminded}

// Outcome is how a run ended.
type Outcome string

// Outcomes of a run. The first four are the agent's own statuses.
const (
	Completed   Outcome = "completed"
	Failed      Outcome = "failed"
	Blocked     Outcome = "blocked"
	NeedsInput  Outcome = "needs_input"
	AgentError  Outcome = "error"        // the agent crashed, timed out or answered garbage
	Stopped     Outcome = "stopped"      // the kill context, or a human (bh stop), stopped the agent
	Conflict    Outcome = "conflict"     // landing met a conflict the agent resolves next, in the same session
	Gated       Outcome = "gated"        // completed, but parked until a human approves the commit
	Held        Outcome = "held"         // completed, but landing it would overwrite the user's changes: a human decides
	HookRefused Outcome = "hook_refused" // completed, but a commit hook of the repository refused its commit: a human decides
	Kept        Outcome = "kept"         // completed and committed on its branch bh/<id>, not landed (land: branch)
	CheckFailed Outcome = "check_failed" // a check failed on the tree that would land: the agent fixes it, or a human decides
	InReview    Outcome = "in_review"    // completed, pushed to its pull request, which the worker shepherds (land: pr)
	Unavailable Outcome = "unavailable"  // the agent was out (auth, overload, limits): the task is open again, not failed
	// SetupFailed is a worktree whose setup (worktree.copy, worktree.setup) failed; no agent ran.
	SetupFailed Outcome = "setup_failed"
	// What onTimeout did with an Expired task.
	TimeoutFailed   Outcome = "timeout_failed"
	TimeoutDeferred Outcome = "timeout_deferred"
	TimeoutDefaults Outcome = "timeout_defaults" // defaults answered; the task resumes, marked for review
	TimeoutReminded Outcome = "timeout_reminded"
)

// Event is one step of the worker's progress.
type Event struct {
	Kind    Kind
	Task    string
	Title   string
	Outcome Outcome
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
	Err       error // AgentError: what went wrong
}

// report hands e to Options.Report, one event at a time: notifier
// warnings arrive from other goroutines.
func (w *worker) report(e Event) {
	if w.opt.Report == nil {
		return
	}
	w.reportMu.Lock()
	defer w.reportMu.Unlock()
	w.opt.Report(e)
}
