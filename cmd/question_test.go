package cmd

import (
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
)

func TestExpiryText(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		at   time.Time
		want string
	}{
		{now.Add(3*time.Hour + 20*time.Minute), "expires in 3h"},
		{now.Add(59 * time.Second), "expires in 59s"},
		{now.Add(50 * time.Hour), "expires in 2d"},
		{now.Add(-5 * time.Minute), "expired 5m ago"},
		{now, "expired 0s ago"},
	} {
		if got := expiryText(now, tc.at); got != tc.want {
			t.Errorf("expiryText(%v) = %q, want %q", tc.at.Sub(now), got, tc.want)
		}
	}
}

// Numbers count every question of the round, so they stay put as answers
// come in; older rounds do not count.
func TestNumbered(t *testing.T) {
	at := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	tk := &task.Task{ID: "tm-ab12", State: task.AwaitingInput, Questions: []task.Question{
		{ID: "q0", Status: task.QuestionAnswered, AskedAt: at.Add(-time.Hour)},
		{ID: "q1", Status: task.QuestionAnswered, AskedAt: at},
		{ID: "q2", Status: task.QuestionPending, AskedAt: at},
		{ID: "q3", Status: task.QuestionExpired, AskedAt: at},
		{ID: "q4", Status: task.QuestionPending, AskedAt: at},
	}}
	got := numbered(tk)
	if len(got) != 2 || got[0].N != 2 || got[0].Q.ID != "q2" || got[1].N != 4 || got[1].Q.ID != "q4" {
		t.Errorf("numbered = %+v", got)
	}
	flat := &task.Task{ID: "tm-cd34", State: task.AwaitingInput, Question: "Why?"}
	if got := numbered(flat); len(got) != 1 || got[0].N != 1 || got[0].Q.Question != "Why?" {
		t.Errorf("numbered(flat) = %+v", got)
	}
	if got := numbered(&task.Task{State: task.Open}); got != nil {
		t.Errorf("numbered(open) = %+v", got)
	}
}
