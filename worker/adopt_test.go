package worker

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
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
		if got := lastParked(&task.Task{History: c.h}); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestEmptiedWorkIsSaid: a run that undoes its parked work and asks again
// parks nothing; its history says so, so that no clone brings the older
// snapshot back as the work.
func TestEmptiedWorkIsSaid(t *testing.T) {
	s := newStore(t)
	tk := addTask(t, s, "Drafts, then thinks better of it")
	ask := agent.Result{Status: agent.StatusNeedsInput, Summary: "asking", Question: "Go ahead?"}
	f := &fake{steps: []stepFn{step(map[string]string{"draft.txt": "draft\n"}, ask)}}
	runOnce(t, s, f)
	if lastParked(getTask(t, s, tk.ID)) == "" {
		t.Fatal("the draft was not parked")
	}
	answer(t, s, tk.ID, "go on")
	f.steps = []stepFn{step(map[string]string{"draft.txt": ""}, ask)}
	runOnce(t, s, f)
	got := getTask(t, s, tk.ID)
	if e, _ := lastEvent(got, task.EventParked); e.Commit != "" || !strings.Contains(e.Text, "nothing left to keep") {
		t.Errorf("last parked event %+v: want one that keeps nothing", e)
	}
	if p := lastParked(got); p != "" {
		t.Errorf("lastParked = %s after the work was emptied", p)
	}
}
