package claims

import (
	"testing"

	"github.com/bh-tracker/bh/task"
)

// TestLastParked: the parked work a claim adopts is the last snapshot the
// history records, and none once the work was emptied (parked with no
// change), committed or rolled back.
func TestLastParked(t *testing.T) {
	ev := func(kind, commit string) task.Event { return task.Event{Kind: kind, Commit: commit} }
	for _, c := range []struct {
		name string
		h    []task.Event
		want string
	}{
		{"never parked", []task.Event{ev(task.EventRunStarted, "")}, ""},
		{"parked", []task.Event{ev(task.EventParked, "p1")}, "p1"},
		{"parked again elsewhere", []task.Event{ev(task.EventParked, "p1"), ev(task.EventUnparked, "p1"), ev(task.EventParked, "p2")}, "p2"},
		{"resumed since", []task.Event{ev(task.EventParked, "p1"), ev(task.EventRunStarted, "")}, "p1"},
		{"rolled back since", []task.Event{ev(task.EventParked, "p1"), ev(task.EventRollback, "")}, ""},
		{"emptied since", []task.Event{ev(task.EventParked, "p1"), ev(task.EventRunStarted, ""), ev(task.EventParked, "")}, ""},
		{"landed since", []task.Event{ev(task.EventParked, "p1"), ev(task.EventCommit, "")}, ""},
	} {
		if got := LastParked(&task.Task{History: c.h}); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
