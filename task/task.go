// Package task is bh's model: tasks, their states and history, IDs, and the
// YAML store under .bh/. It does no terminal I/O.
package task

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// Task is one unit of work, stored as .bh/tasks/<id>.yaml. Field names are
// part of bh's file format and of its --json output: keep them stable.
type Task struct {
	ID          string   `yaml:"id" json:"id"`
	Title       string   `yaml:"title" json:"title"`
	Description string   `yaml:"description,omitempty" json:"description,omitempty"`
	Type        Type     `yaml:"type" json:"type"`
	Priority    Priority `yaml:"priority" json:"priority"`
	Size        Size     `yaml:"size,omitempty" json:"size,omitempty"`
	State       State    `yaml:"state" json:"state"`
	Parent      string   `yaml:"parent,omitempty" json:"parent,omitempty"`
	DependsOn   []string `yaml:"dependsOn,omitempty" json:"dependsOn,omitempty"`
	Labels      []string `yaml:"labels,omitempty" json:"labels,omitempty"`
	// Source is the link of the issue the task was imported from (bh
	// import github): the one key that finds it again.
	Source string `yaml:"source,omitempty" json:"source,omitempty"`

	// The current question, kept flat for the simple one-question case.
	Question         string     `yaml:"question,omitempty" json:"question,omitempty"`
	QuestionContext  string     `yaml:"questionContext,omitempty" json:"questionContext,omitempty"`
	HumanResponse    string     `yaml:"humanResponse,omitempty" json:"humanResponse,omitempty"`
	HumanRespondedAt *time.Time `yaml:"humanRespondedAt,omitempty" json:"humanRespondedAt,omitempty"`
	// Questions holds every typed question of the current and past rounds.
	Questions []Question `yaml:"questions,omitempty" json:"questions,omitempty"`

	SessionID string `yaml:"sessionId,omitempty" json:"sessionId,omitempty"`
	Agent     string `yaml:"agent,omitempty" json:"agent,omitempty"` // the agent that worked on it
	// AgentSettings choose and tune the agent for this task, over the
	// config's (bh add --agent codex --model ...).
	AgentSettings *AgentSettings `yaml:"agentSettings,omitempty" json:"agentSettings,omitempty"`
	Summary       string         `yaml:"summary,omitempty" json:"summary,omitempty"`
	Details       string         `yaml:"details,omitempty" json:"details,omitempty"`
	Issues        []string       `yaml:"issues,omitempty" json:"issues,omitempty"`
	Lease         *Lease         `yaml:"lease,omitempty" json:"lease,omitempty"`

	// Human-in-the-loop policy; empty means the config's default.
	Gate         string `yaml:"gate,omitempty" json:"gate,omitempty"`
	Human        *bool  `yaml:"human,omitempty" json:"human,omitempty"`
	HumanTimeout string `yaml:"humanTimeout,omitempty" json:"humanTimeout,omitempty"`
	OnTimeout    string `yaml:"onTimeout,omitempty" json:"onTimeout,omitempty"`
	NeedsReview  bool   `yaml:"needsReview,omitempty" json:"needsReview,omitempty"`

	// Where finished work goes; empty means the config's default.
	Target string `yaml:"target,omitempty" json:"target,omitempty"` // the branch to land on
	Land   string `yaml:"land,omitempty" json:"land,omitempty"`     // merge, branch (keep it on bh/<id>) or pr
	// Checks add to the config's checks for this task (bh add --check).
	Checks []string `yaml:"checks,omitempty" json:"checks,omitempty"`
	// Sandbox is this task's sandbox mode (auto, off, required), over the config's.
	Sandbox string `yaml:"sandbox,omitempty" json:"sandbox,omitempty"`
	// Budget is what this task's runs may spend in all, in USD, over the
	// config's (bh add --budget); 0: the config's.
	Budget float64 `yaml:"budget,omitempty" json:"budget,omitempty"`
	// A recurring task: Every is its schedule (1w, 12h, or a cron line such
	// as "0 9 * * 1"); when it ends, a task following it (Follows: its id)
	// is made for the next time, which the worker does not take before
	// NotBefore. See schedule.go.
	Every     string     `yaml:"every,omitempty" json:"every,omitempty"`
	NotBefore *time.Time `yaml:"notBefore,omitempty" json:"notBefore,omitempty"`
	Follows   string     `yaml:"follows,omitempty" json:"follows,omitempty"`
	// Attempts is how many agents try the task side by side (bh add
	// --attempts 3), the human picking one; Agents mixes their agents, in
	// turn. Attempt is an attempt task's number (1 is the first), its
	// Parent the task tried (see attempts.go).
	Attempts int      `yaml:"attempts,omitempty" json:"attempts,omitempty"`
	Agents   []string `yaml:"agents,omitempty" json:"agents,omitempty"`
	Attempt  int      `yaml:"attempt,omitempty" json:"attempt,omitempty"`
	// Plan runs the agent read-only first, to ask and to plan; a human
	// approves the plan before it codes (bh add --plan), over the config's.
	Plan *bool `yaml:"plan,omitempty" json:"plan,omitempty"`

	CreatedAt time.Time `yaml:"createdAt" json:"createdAt"`
	UpdatedAt time.Time `yaml:"updatedAt" json:"updatedAt"`
	History   []Event   `yaml:"history,omitempty" json:"history,omitempty"`

	// brief marks a task from ListBrief, whose History was cut: bh refuses
	// to write it back.
	brief bool
}

// Trim makes t brief, as bh list shows it: its History becomes history
// (the last question asked, at most), and the store refuses to write it
// back.
func (t *Task) Trim(history []Event) { t.History, t.brief = history, true }

// Brief reports whether t was trimmed.
func (t *Task) Brief() bool { return t.brief }

// Lease records which worker holds an in_progress task, so a dead worker's
// task can be recovered instead of staying in_progress forever.
type Lease struct {
	Worker    string    `yaml:"worker" json:"worker"`
	PID       int       `yaml:"pid" json:"pid"`
	Host      string    `yaml:"host" json:"host"`
	Heartbeat time.Time `yaml:"heartbeat" json:"heartbeat"`
	StartedAt time.Time `yaml:"startedAt" json:"startedAt"`
}

// Question is one typed question an agent asked, with its own lifecycle.
type Question struct {
	ID          string   `yaml:"id" json:"id"`
	Question    string   `yaml:"question" json:"question"`
	Header      string   `yaml:"header,omitempty" json:"header,omitempty"`
	Type        string   `yaml:"type,omitempty" json:"type,omitempty"`
	Options     []Option `yaml:"options,omitempty" json:"options,omitempty"`
	MultiSelect bool     `yaml:"multiSelect,omitempty" json:"multiSelect,omitempty"`
	Default     string   `yaml:"default,omitempty" json:"default,omitempty"`
	Context     string   `yaml:"context,omitempty" json:"context,omitempty"`
	// Tool is the permission rule a yes grants the agent on its next run.
	Tool   string `yaml:"tool,omitempty" json:"tool,omitempty"`
	Status string `yaml:"status" json:"status"`
	// Answer is the decision: "yes"/"no" for approval, option labels for
	// choice, the text for freeform. Comment is free text beside it: a
	// reviewer's feedback, or the text of an "Other" choice.
	Answer  []string `yaml:"answer,omitempty" json:"answer,omitempty"`
	Comment string   `yaml:"comment,omitempty" json:"comment,omitempty"`
	// Comments are a reviewer's remarks on lines of the change, beside a no.
	Comments []LineComment `yaml:"comments,omitempty" json:"comments,omitempty"`
	// Gate marks the approval question the worker asks before committing.
	Gate bool `yaml:"gate,omitempty" json:"gate,omitempty"`
	// Planning marks a question asked in a planning run (plan: true);
	// Plan, the plan a planning run ended with, marks the question that
	// asks a human to approve it (task/plan).
	Planning   bool       `yaml:"planning,omitempty" json:"planning,omitempty"`
	Plan       string     `yaml:"plan,omitempty" json:"plan,omitempty"`
	AskedAt    time.Time  `yaml:"askedAt" json:"askedAt"`
	AnsweredAt *time.Time `yaml:"answeredAt,omitempty" json:"answeredAt,omitempty"`
	ExpiresAt  *time.Time `yaml:"expiresAt,omitempty" json:"expiresAt,omitempty"`
}

// Option is one choice of a choice question.
type Option struct {
	Label       string `yaml:"label" json:"label"`
	Description string `yaml:"description,omitempty" json:"description,omitempty"`
}

// LineComment is a reviewer's remark on one line of a file of the change.
type LineComment struct {
	Path string `yaml:"path" json:"path"`
	Line int    `yaml:"line" json:"line"`
	Text string `yaml:"text" json:"text"`
}

// Question lifecycle, separate from the decision an answer carries.
const (
	QuestionPending   = "pending"
	QuestionAnswered  = "answered"
	QuestionExpired   = "expired"
	QuestionCancelled = "cancelled"
)

// Event is one entry of a task's audit trail. History is only ever appended.
type Event struct {
	At         time.Time `yaml:"at" json:"at"`
	Kind       string    `yaml:"kind" json:"kind"`
	From       State     `yaml:"from,omitempty" json:"from,omitempty"`
	To         State     `yaml:"to,omitempty" json:"to,omitempty"`
	By         string    `yaml:"by,omitempty" json:"by,omitempty"`
	QuestionID string    `yaml:"questionId,omitempty" json:"questionId,omitempty"`
	Text       string    `yaml:"text,omitempty" json:"text,omitempty"`
	// Comments on lines given with an answer (kind input.received).
	Comments []LineComment `yaml:"comments,omitempty" json:"comments,omitempty"`
	Context  string        `yaml:"context,omitempty" json:"context,omitempty"`
	Status   string        `yaml:"status,omitempty" json:"status,omitempty"`
	Session  string        `yaml:"session,omitempty" json:"sessionId,omitempty"`
	Commit   string        `yaml:"commit,omitempty" json:"commit,omitempty"`
	Stats    string        `yaml:"stats,omitempty" json:"stats,omitempty"` // a run's turns, duration and cost
	// A check's run (kind check): its command, exit status (0 passed, -1
	// stopped), time, the tail of its output, and the round of checks it
	// was in (1 for a task's first completion checked).
	Command  string        `yaml:"command,omitempty" json:"command,omitempty"`
	ExitCode int           `yaml:"exitCode,omitempty" json:"exitCode,omitempty"`
	Took     time.Duration `yaml:"took,omitempty" json:"-"` // "tookSeconds": eventjson.go
	Output   string        `yaml:"output,omitempty" json:"output,omitempty"`
	Round    int           `yaml:"round,omitempty" json:"round,omitempty"`
	// Sandbox is how a run was confined: bwrap, or none and why.
	Sandbox string `yaml:"sandbox,omitempty" json:"sandbox,omitempty"`
	// A run's spend (kind run.finished, and budget.crossed): its cost in
	// USD and every token it used.
	CostUSD float64 `yaml:"costUsd,omitempty" json:"costUsd,omitempty"`
	Tokens  int64   `yaml:"tokens,omitempty" json:"tokens,omitempty"`
}

// Event kinds. The dotted ones double as notification event names.
const (
	EventCreated        = "created"
	EventState          = "state"
	EventUpdated        = "updated"
	EventInputRequested = "input.requested"
	EventInputReceived  = "input.received"
	EventInputExpired   = "input.expired"
	EventRunStarted     = "run.started"
	EventRunFinished    = "run.finished"
	EventCommit         = "commit"
	EventRollback       = "rollback"
	EventParked         = "parked"
	EventUnparked       = "unparked"
	EventStopped        = "stopped"
	EventSessionLost    = "session.lost" // the agent's session could not be resumed; a fresh one took over
	EventInputUnused    = "input.unused" // an answer made in another clone after the one used: kept, not used
	EventCheck          = "check"        // one check command run before landing (Command, ExitCode, Took, Output, Round)
	// A pull request (land: pr): opened or pushed to (Text: its URL,
	// Commit: the head pushed), and the review feedback that sent the task
	// back to its session (Text: the feedback, Context: what it answers).
	EventPR       = "pr"
	EventFeedback = "pr.feedback"
	// A run cut short by the agent's usage limit (Text: the window and
	// when it resets), and a run stopped at the task's budget (CostUSD:
	// what was spent), each parked to go on in the same session.
	EventLimitPaused   = "limit.paused"
	EventBudgetCrossed = "budget.crossed"
	// EventPlan is the plan a planning run ended with (Text), asked for
	// a human's approval.
	EventPlan = "plan"
)

// Notification events that are no history kinds; worker/notify sends them
// and the input.* kinds above.
const (
	EventInputReminder = "input.reminder"
	EventTaskCompleted = "task.completed"
	EventTaskFailed    = "task.failed"
	EventTaskBlocked   = "task.blocked"
	EventTaskStopped   = "task.stopped"  // a run stopped by Ctrl-C, bh stop or a dead worker's recovery
	EventLimitResumed  = "limit.resumed" // the pause of a usage limit or a day's budget is over
	// AllEvents in a notifier's events list matches every event.
	AllEvents = "*"
)

// NotifyEvents are what a notifier's events list may name.
var NotifyEvents = []string{EventInputRequested, EventInputReceived, EventInputExpired, EventInputReminder,
	EventTaskCompleted, EventTaskFailed, EventTaskBlocked, EventTaskStopped, EventLimitPaused, EventLimitResumed,
	EventBudgetCrossed, AllEvents}

// Record appends an event stamped at now and bumps UpdatedAt.
func (t *Task) Record(now time.Time, e Event) {
	e.At = now.UTC()
	t.History = append(t.History, e)
	t.UpdatedAt = e.At
}

// Type is the kind of work; it picks the prompt template.
type Type string

// Priority runs from P0 (most urgent) to P4.
type Priority string

// Size is a rough estimate of the work.
type Size string

// Types, priorities and sizes, in display order.
var (
	Types      = []Type{"code", "design", "review", "test", "docs"}
	Priorities = []Priority{"P0", "P1", "P2", "P3", "P4"}
	Sizes      = []Size{"small", "medium", "large"}
)

// Rank orders priorities: P0 is 0.
func (p Priority) Rank() int {
	if len(p) == 2 && p[1] >= '0' && int(p[1]-'0') < len(Priorities) && Priorities[p[1]-'0'] == p {
		return int(p[1] - '0') // sorts call this millions of times
	}
	if i := slices.Index(Priorities, p); i >= 0 {
		return i
	}
	return len(Priorities)
}

// ParseType, ParsePriority and ParseSize validate user input.
func ParseType(s string) (Type, error) {
	return parseEnum("type", Type(s), Types)
}

func ParsePriority(s string) (Priority, error) {
	if len(s) == 1 && s[0] >= '0' && s[0] <= '4' {
		s = "P" + s
	}
	if len(s) == 2 && s[0] == 'p' {
		s = "P" + s[1:]
	}
	return parseEnum("priority", Priority(s), Priorities)
}

func ParseSize(s string) (Size, error) {
	return parseEnum("size", Size(s), Sizes)
}

func parseEnum[T ~string](what string, v T, allowed []T) (T, error) {
	if slices.Contains(allowed, v) {
		return v, nil
	}
	return v, fmt.Errorf("unknown %s %q (want one of %v)", what, string(v), allowed)
}

// CheckBudget refuses a budget bh cannot bound spend with.
func CheckBudget(usd float64) error {
	if usd < 0 || math.IsInf(usd, 0) || math.IsNaN(usd) {
		return fmt.Errorf("%v: want an amount in USD, such as 2.50 (0: none)", usd)
	}
	return nil
}

// CostReported says whether e is a run that reported what it cost. A run
// whose agent reports none (a command agent that says nothing of it)
// records no costUsd, as one that cost nothing would: its cost is unknown.
func (e Event) CostReported() bool { return e.Kind == EventRunFinished && e.CostUSD > 0 }

// Ran says whether t has had a run, and whether one reported its cost.
func (t *Task) Ran() (ran, costReported bool) {
	for _, e := range t.History {
		ran, costReported = ran || e.Kind == EventRunFinished, costReported || e.CostReported()
	}
	return ran, costReported
}

// Spent is what t's runs have cost so far, in USD, as its history records
// each run's cost.
func (t *Task) Spent() float64 {
	sum := 0.0
	for _, e := range t.History {
		if e.Kind == EventRunFinished {
			sum += e.CostUSD
		}
	}
	return sum
}
