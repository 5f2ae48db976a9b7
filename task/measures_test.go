package task

import (
	"testing"
	"time"
)

func TestMeasure(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	min := func(n int) time.Time { return at.Add(time.Duration(n) * time.Minute) }
	check := func(n, round, exit int) Event {
		return Event{At: min(n), Kind: EventCheck, Command: "go test", Round: round, ExitCode: exit, Took: 2 * time.Second}
	}
	tk := &Task{State: Closed, History: []Event{
		{At: min(0), Kind: EventCreated, To: Open},
		check(1, 1, 1),                           // round 1 fails
		{At: min(2), Kind: EventState, To: Open}, // back to the agent
		check(3, 2, 0), check(3, 2, 0),           // round 2: both pass
		{At: min(4), Kind: EventPR, Text: "https://github.com/o/r/pull/1"},
		{At: min(5), Kind: EventState, From: InReview, To: InReview},
		{At: min(10), Kind: EventFeedback, Text: "a review comment"},
		{At: min(10), Kind: EventState, To: Open},
		{At: min(34), Kind: EventState, From: InReview, To: Closed},
	}}
	m := tk.Measure(min(60))
	if m.CheckRounds != 2 || !m.Green || m.InChecks != 6*time.Second || m.FeedbackRounds != 1 || m.InReview != 30*time.Minute {
		t.Fatalf("measures %+v", m)
	}
	if got, want := m.Text(), "checks: green after 2 round(s), 6.0s in checks; review: 1 feedback round(s), 30m waiting on review"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	tk.History, tk.State = tk.History[:2], Open // one failed round: not green
	if m := tk.Measure(min(60)); m.CheckRounds != 1 || m.Green || m.Text() != "checks: not green yet, 2.0s in checks" {
		t.Errorf("measures %+v %q", m, m.Text())
	}
	tk.History, tk.State = append(tk.History, Event{At: min(4), Kind: EventPR}), InReview // still in review
	if m := tk.Measure(min(60)); m.InReview != 56*time.Minute {
		t.Errorf("in review since minute 4: %v", m.InReview)
	}
}
