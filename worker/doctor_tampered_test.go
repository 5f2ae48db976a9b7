package worker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/doctor"
	"github.com/bh-tracker/bh/worker/slots"

	"github.com/bh-tracker/bh/agent"
)

// TestDoctorRebuildsATamperedSlot: a pool slot whose .git file and admin
// dir an agent rewrote is named as an error; --fix removes it when free
// and gives a held one bh's git files back, its parked work kept.
func TestDoctorRebuildsATamperedSlot(t *testing.T) {
	t.Parallel()
	for _, held := range []bool{false, true} {
		s := doctorStore(t)
		addTask(t, s, "Works")
		res := done("ok")
		if held {
			res = agent.Result{Status: agent.StatusNeedsInput, Summary: "?", Question: "Tabs or spaces?"}
		}
		runWith(t, s, Options{Runner: &fake{steps: []stepFn{step(map[string]string{"wip.txt": "wip\n"}, res)}}})
		r := mustRepo(t, s)
		found, err := slots.List(s, r)
		if err != nil || len(found) != 1 || (found[0].Holder != "") != held {
			t.Fatalf("held %v: slots %+v, %v", held, found, err)
		}
		slot := found[0].Path
		admin := filepath.Join(r.CommonDir(), "worktrees", "1")
		evil := filepath.Join(t.TempDir(), "evil.git")
		writeFile(t, slot, ".git", "gitdir: "+evil+"\n")
		writeFile(t, admin, "config.worktree", "[core]\n\tfsmonitor = /bin/false\n")

		f := finding(t, doctorT(t, s, false), "pool", slot)
		if f.Status != doctor.Error || !f.Fixable || !strings.Contains(f.Message, "not bh's") {
			t.Fatalf("held %v: the tampered slot: %+v", held, f)
		}
		if rep := doctorT(t, s, true); rep.Problems() != 0 {
			t.Fatalf("held %v: after --fix: %+v", held, rep.Findings)
		}
		_, gone := os.Stat(slot)
		if held == os.IsNotExist(gone) {
			t.Errorf("held %v: the slot is gone: %v", held, os.IsNotExist(gone))
		}
		if held {
			list, err := slots.List(s, r)
			if err != nil || len(list) != 1 || len(list[0].Tampered) > 0 || !exists(slot, "wip.txt") {
				t.Errorf("the held slot after --fix: %+v, %v, work kept %v", list, err, exists(slot, "wip.txt"))
			}
		}
		if rep := doctorT(t, s, false); rep.Problems() != 0 {
			t.Errorf("held %v: doctor after --fix: %+v", held, rep.Findings)
		}
	}
}
