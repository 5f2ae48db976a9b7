package worker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/doctor"
	"github.com/bh-tracker/bh/worker/slots"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

// TestDoctorKnowsThePool: doctor names the slots and their holders, and
// --fix removes a stray folder in the pool and the slot of a task closed
// by hand (its work is safe in its parked ref).
func TestDoctorKnowsThePool(t *testing.T) {
	t.Parallel()
	s := doctorStore(t)
	tk := addTask(t, s, "Asks")
	ask := agent.Result{Status: agent.StatusNeedsInput, Summary: "?", Question: "Tabs or spaces?"}
	runWith(t, s, Options{Runner: &fake{steps: []stepFn{step(map[string]string{"wip.txt": "wip\n"}, ask)}}})
	slot := slots.WorktreePath(s, mustRepo(t, s), tk.ID)
	if filepath.Base(slot) != "1" || !exists(slot, "wip.txt") {
		t.Fatalf("the parked task is not in slot 1 with its work: %s", slot)
	}
	rep := doctorT(t, s, false)
	if rep.Problems() != 0 {
		t.Fatalf("a healthy pool: %+v", rep.Findings)
	}
	if f := finding(t, rep, "pool", ""); !strings.Contains(f.Message, "1 slots") || !strings.Contains(f.Message, "held by 1: "+tk.ID) {
		t.Errorf("pool: %q", f.Message)
	}

	stray := filepath.Join(filepath.Dir(slot), "7")
	writeFile(t, stray, "left.txt", "left\n")
	if f := finding(t, doctorT(t, s, false), "pool", stray); f.Status != doctor.Warn || !f.Fixable {
		t.Fatalf("stray folder: %+v", f)
	}
	update(t, s, tk.ID, func(tk *task.Task) { tk.State = task.Closed })
	if f := finding(t, doctorT(t, s, false), "pool", slot); f.Status != doctor.Warn || !f.Fixable {
		t.Fatalf("the closed task's slot: %+v", f)
	}
	if rep := doctorT(t, s, true); rep.Problems() != 0 {
		t.Fatalf("after --fix: %+v", rep.Findings)
	}
	for _, dir := range []string{stray, slot} {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s is still there after --fix: %v", dir, err)
		}
	}
}
