package board

import (
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
)

// A task not to run before a later time is listed apart, soonest first,
// with when it runs next; nothing is listed there when none is.
func TestBoardShowsScheduledTasks(t *testing.T) {
	now := time.Date(2026, 12, 7, 9, 40, 0, 0, time.UTC)
	week, day, past := now.Add(7*24*time.Hour-40*time.Minute), now.Add(24*time.Hour), now.Add(-time.Hour)
	weekly := &task.Task{ID: "tm-week", Title: "Bump the deps", State: task.Open, Every: "1w", NotBefore: &week}
	daily := &task.Task{ID: "tm-day", Title: "Triage", State: task.Open, Every: "1d", NotBefore: &day}
	due := &task.Task{ID: "tm-due", Title: "Due now", State: task.Open, NotBefore: &past}
	closed := &task.Task{ID: "tm-old", Title: "Closed", State: task.Closed, NotBefore: &week}
	got := scheduled([]*task.Task{weekly, due, closed, daily}, now)
	if len(got) != 2 || got[0] != daily || got[1] != weekly {
		t.Fatalf("scheduled: %v", got)
	}
	m := boardOf()
	m.now, m.width = now, 120
	for _, tk := range got {
		m.rows = append(m.rows, boardRow{secLater, tk})
	}
	list := m.list(20)
	if !strings.Contains(list, "scheduled (2)") || !strings.Contains(list, "next: "+ui.NextRun(week)) {
		t.Fatalf("the board's list:\n%s", list)
	}
	if m := boardOf(); strings.Contains(m.list(20), secLater) {
		t.Fatal("an empty scheduled section is shown")
	}
}
