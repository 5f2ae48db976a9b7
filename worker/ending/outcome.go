package ending

// Outcome is how a run ended.
type Outcome string

// Outcomes lists every Outcome: bh worker --json documents them from this
// list, and a test checks it against the constants.
var Outcomes = []Outcome{Completed, Failed, Blocked, NeedsInput, AgentError, Stopped, Conflict, Gated, Held, HookRefused,
	Kept, CheckFailed, InReview, Unavailable, OverBudget, SetupFailed, TimeoutFailed, TimeoutDeferred, TimeoutDefaults, TimeoutReminded}

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
	Held        Outcome = "held"         // completed, but kept from landing (the user's changes in the way, a key that cannot sign): it waits
	HookRefused Outcome = "hook_refused" // completed, but a commit hook of the repository refused its commit: a human decides
	Kept        Outcome = "kept"         // completed and committed on its branch bh/<id>, not landed (land: branch)
	CheckFailed Outcome = "check_failed" // a check failed on the tree that would land: the agent fixes it, or a human decides
	InReview    Outcome = "in_review"    // completed, pushed to its pull request, which the worker shepherds (land: pr)
	Unavailable Outcome = "unavailable"  // the agent was out (auth, overload, limits): the task is open again, not failed
	OverBudget  Outcome = "over_budget"  // stopped at the task's budget: a human approves going on, or not
	// SetupFailed is a worktree whose setup (worktree.copy, worktree.setup) failed; no agent ran.
	SetupFailed Outcome = "setup_failed"
	// What onTimeout did with an Expired task.
	TimeoutFailed   Outcome = "timeout_failed"
	TimeoutDeferred Outcome = "timeout_deferred"
	TimeoutDefaults Outcome = "timeout_defaults" // defaults answered; the task resumes, marked for review
	TimeoutReminded Outcome = "timeout_reminded"
)
