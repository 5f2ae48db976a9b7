package task

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// allowed is the state machine written out again, pair by pair, so that a
// change to the table has to be made twice on purpose.
var allowed = map[[2]State]bool{
	{Open, InProgress}: true, {Open, Blocked}: true, {Open, Deferred}: true, {Open, Closed}: true,
	{InProgress, Open}: true, {InProgress, AwaitingInput}: true, {InProgress, Blocked}: true,
	{InProgress, Deferred}: true, {InProgress, Failed}: true, {InProgress, Closed}: true, {InProgress, InReview}: true,
	{InReview, Open}: true, {InReview, AwaitingInput}: true, {InReview, Deferred}: true, {InReview, Failed}: true,
	{InReview, Closed}:    true,
	{AwaitingInput, Open}: true, {AwaitingInput, Blocked}: true, {AwaitingInput, Deferred}: true,
	{AwaitingInput, Failed}: true, {AwaitingInput, Closed}: true,
	{Blocked, Open}: true, {Blocked, Deferred}: true, {Blocked, Failed}: true, {Blocked, Closed}: true,
	{Deferred, Open}: true, {Deferred, Closed}: true,
	{Failed, Open}: true, {Failed, Closed}: true,
	{Closed, Open}: true,
}

func TestSetStateEveryPair(t *testing.T) {
	now := time.Date(2025, 5, 1, 9, 30, 0, 0, time.UTC)
	for _, from := range States {
		for _, to := range States {
			t.Run(string(from)+"->"+string(to), func(t *testing.T) {
				tk := &Task{ID: "tm-abcd", State: from, History: []Event{{Kind: EventCreated}}}
				err := tk.SetState(to, now, "alice", "why")
				if allowed[[2]State{from, to}] {
					if err != nil {
						t.Fatalf("want allowed, got %v", err)
					}
					if !CanMove(from, to) || tk.State != to || len(tk.History) != 2 || !tk.UpdatedAt.Equal(now) {
						t.Fatalf("state %s, history %d, updated %v", tk.State, len(tk.History), tk.UpdatedAt)
					}
					want := Event{At: now, Kind: EventState, From: from, To: to, By: "alice", Text: "why"}
					if got := tk.History[1]; !reflect.DeepEqual(got, want) {
						t.Fatalf("event %+v, want %+v", got, want)
					}
					return
				}
				var te *TransitionError
				if !errors.As(err, &te) || te.From != from || te.To != to || te.ID != "tm-abcd" {
					t.Fatalf("want TransitionError %s->%s, got %#v", from, to, err)
				}
				msg := err.Error()
				if !strings.Contains(msg, "tm-abcd") || !strings.Contains(msg, string(from)) || !strings.Contains(msg, string(to)) {
					t.Fatalf("message %q does not name the task and both states", msg)
				}
				if CanMove(from, to) || tk.State != from || len(tk.History) != 1 {
					t.Fatal("a refused move changed the task")
				}
			})
		}
	}
	// Every state in the table is a known state, and none is missing.
	for from, tos := range transitions {
		for _, to := range tos {
			if !allowed[[2]State{from, to}] {
				t.Errorf("table allows %s->%s, the test does not", from, to)
			}
		}
	}
	if len(transitions) != len(States) {
		t.Errorf("table has %d states, want %d", len(transitions), len(States))
	}
}

func TestParseEnums(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{{"1", "P1", true}, {"p3", "P3", true}, {"P0", "P0", true}, {"P5", "", false}, {"high", "", false}, {"", "", false}} {
		p, err := ParsePriority(c.in)
		if (err == nil) != c.ok || c.ok && string(p) != c.want {
			t.Errorf("ParsePriority(%q) = %q, %v", c.in, p, err)
		}
	}
	if _, err := ParseState("done"); err == nil || !strings.Contains(err.Error(), `unknown state "done"`) {
		t.Errorf("ParseState(done): %v", err)
	}
	if _, err := ParseType("code"); err != nil {
		t.Error(err)
	}
	if _, err := ParseSize("huge"); err == nil {
		t.Error("ParseSize(huge) passed")
	}
}

// TestMoveHoldingEveryPair: a task holding work that has not landed makes
// every move the table allows but the ones that end it, which need an
// explicit discard and then name what went.
func TestMoveHoldingEveryPair(t *testing.T) {
	now := time.Date(2025, 5, 1, 9, 30, 0, 0, time.UTC)
	for _, from := range States {
		for _, to := range States {
			tk := &Task{ID: "tm-abcd", State: from}
			err := tk.MoveHolding(to, now, "alice", "", "approved work", false)
			var ue *UnlandedError
			switch {
			case !allowed[[2]State{from, to}]:
				if err == nil || errors.As(err, &ue) {
					t.Errorf("%s->%s: %v, want the table's refusal", from, to, err)
				}
			case to == Closed:
				if !errors.As(err, &ue) || tk.State != from || !strings.Contains(err.Error(), "approved work") {
					t.Errorf("%s->%s holding work: %v, state %s", from, to, err, tk.State)
				}
				if err := tk.MoveHolding(to, now, "alice", "by hand", "approved work", true); err != nil || tk.State != Closed ||
					tk.History[len(tk.History)-1].Text != "by hand; its approved work discarded" {
					t.Errorf("%s->%s with discard: %v, %+v", from, to, err, tk.History)
				}
			default:
				if err != nil || tk.State != to {
					t.Errorf("%s->%s: %v", from, to, err)
				}
			}
			if tk := (&Task{ID: "tm-abcd", State: from}); allowed[[2]State{from, to}] {
				if err := tk.MoveHolding(to, now, "alice", "", "", false); err != nil {
					t.Errorf("%s->%s holding nothing: %v", from, to, err)
				}
			}
		}
	}
}
