package worker

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/claims"
)

// TestEmptiedWorkIsSaid: a run that undoes its parked work and asks again
// parks nothing; its history says so, so that no clone brings the older
// snapshot back as the work.
func TestEmptiedWorkIsSaid(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := addTask(t, s, "Drafts, then thinks better of it")
	ask := agent.Result{Status: agent.StatusNeedsInput, Summary: "asking", Question: "Go ahead?"}
	f := &fake{steps: []stepFn{step(map[string]string{"draft.txt": "draft\n"}, ask)}}
	runOnce(t, s, f)
	if claims.LastParked(getTask(t, s, tk.ID)) == "" {
		t.Fatal("the draft was not parked")
	}
	answer(t, s, tk.ID, "go on")
	f.steps = []stepFn{step(map[string]string{"draft.txt": ""}, ask)}
	runOnce(t, s, f)
	got := getTask(t, s, tk.ID)
	if e, _ := lastEvent(got, task.EventParked); e.Commit != "" || !strings.Contains(e.Text, "nothing left to keep") {
		t.Errorf("last parked event %+v: want one that keeps nothing", e)
	}
	if p := claims.LastParked(got); p != "" {
		t.Errorf("lastParked = %s after the work was emptied", p)
	}
}
