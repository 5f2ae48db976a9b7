package task

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// State is where a task is in its life.
type State string

// The states a task can be in.
const (
	Open          State = "open"
	InProgress    State = "in_progress"
	AwaitingInput State = "awaiting_input"
	InReview      State = "in_review" // a pull request is open for its work (land: pr)
	Blocked       State = "blocked"
	Deferred      State = "deferred"
	Failed        State = "failed"
	Closed        State = "closed"
)

// States lists every state, in display order.
var States = []State{Open, InProgress, AwaitingInput, InReview, Blocked, Deferred, Failed, Closed}

// transitions is the whole state machine: from -> allowed targets (and
// ends, below, the moves a task holding unlanded work makes only by
// landing it or discarding it).
// A human may always close a task or put it aside; only the worker (or a
// hand claim) moves it into in_progress, and only from open.
var transitions = map[State][]State{
	Open:       {InProgress, Blocked, Deferred, Closed},
	InProgress: {Open, AwaitingInput, InReview, Blocked, Deferred, Failed, Closed},
	// The shepherd moves a reviewed task: feedback reopens it for the same
	// session, a merge closes it, a PR closed unmerged asks the human.
	InReview:      {Open, AwaitingInput, Deferred, Failed, Closed},
	AwaitingInput: {Open, Blocked, Deferred, Failed, Closed},
	Blocked:       {Open, Deferred, Failed, Closed},
	Deferred:      {Open, Closed},
	Failed:        {Open, Closed},
	Closed:        {Open},
}

// ends are the moves that end a task's life. A task holding work that
// has not landed (its parked snapshot, or finished work a human approved
// that waits to land) ends only by landing it, or by an explicit discard:
// MoveHolding refuses these moves otherwise.
var ends = map[State]bool{Closed: true}

// UnlandedError is a move that would end a task whose work has not
// landed, without discarding it.
type UnlandedError struct {
	ID   string
	Work string // in words: "approved work", "parked work (3f2a1c9e07)"
	To   State
}

func (e *UnlandedError) Error() string {
	return fmt.Sprintf("%s holds %s that has not landed: moving it to %s would lose it", e.ID, e.Work, e.To)
}

// MoveHolding is SetState for a task holding work that has not landed
// (work, in words; "" when none): a move that ends it needs discard, and
// then says in its note what was discarded.
func (t *Task) MoveHolding(to State, now time.Time, by, note, work string, discard bool) error {
	if work != "" && ends[to] && CanMove(t.State, to) {
		if !discard {
			return &UnlandedError{ID: t.ID, Work: work, To: to}
		}
		note = strings.TrimPrefix(note+"; its "+work+" discarded", "; ")
	}
	return t.SetState(to, now, by, note)
}

// ParseState validates a state name.
func ParseState(s string) (State, error) {
	return parseEnum("state", State(s), States)
}

// CanMove reports whether the table allows from -> to.
func CanMove(from, to State) bool {
	return slices.Contains(transitions[from], to)
}

// TransitionError is a move the state table forbids.
type TransitionError struct {
	ID       string
	From, To State
}

func (e *TransitionError) Error() string {
	if e.From == e.To {
		return fmt.Sprintf("%s is already %s", e.ID, e.From)
	}
	return fmt.Sprintf("cannot move %s from %s to %s", e.ID, e.From, e.To)
}

// SetState moves the task to a new state if the table allows it, and
// records the change (with an optional note) in the history.
func (t *Task) SetState(to State, now time.Time, by, note string) error {
	if !CanMove(t.State, to) {
		return &TransitionError{ID: t.ID, From: t.State, To: to}
	}
	from := t.State
	t.State = to
	t.Record(now, Event{Kind: EventState, From: from, To: to, By: by, Text: note})
	return nil
}
