package worker

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bh-tracker/bh/worker/doctor"
	"github.com/bh-tracker/bh/worker/slots"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

// parkAndMoveState parks a task on a question, its worktree (with its
// partial work) in the state dir, then moves the state dir (a new HOME or
// XDG_STATE_HOME) and answers: the worktree stays registered at its old
// path, which still exists.
func parkAndMoveState(t *testing.T) (s *store.Store, f *fake, id, old string) {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	s = doctorStore(t)
	tk := addTask(t, s, "Asks")
	ask := agent.Result{Status: agent.StatusNeedsInput, Summary: "?", Question: "Tabs or spaces?"}
	f = &fake{steps: []stepFn{step(map[string]string{"wip.txt": "wip\n"}, ask)}}
	runWith(t, s, Options{Runner: f})
	old = slots.WorktreePath(s, mustRepo(t, s), tk.ID)
	if !exists(old, "wip.txt") {
		t.Fatalf("no parked worktree at %s", old)
	}
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"tabs"}}}, ""); err != nil {
		t.Fatal(err)
	}
	return s, f, tk.ID, old
}

// TestWorkerUsesWorktreeRegisteredElsewhere: the resumed run works in the
// registered worktree, where its partial work is, and lands; the worker
// does not fail.
func TestWorkerUsesWorktreeRegisteredElsewhere(t *testing.T) {
	s, f, id, old := parkAndMoveState(t)
	f.steps = append(f.steps, step(map[string]string{"rest.txt": "rest\n"}, done("Tabs.")))
	runWith(t, s, Options{Runner: f})
	reqs := f.requests()
	if got := reqs[len(reqs)-1].Dir; got != old {
		t.Errorf("resumed in %s, want the registered worktree %s", got, old)
	}
	if st := getTask(t, s, id).State; st != task.Closed {
		t.Fatalf("task %s, want closed", st)
	}
	want := []string{".bh/tasks/" + id + ".yaml", "rest.txt", "wip.txt"}
	if c := committed(t, s.Root, "HEAD"); !slices.Equal(c, want) {
		t.Fatalf("landed %v, want %v", c, want)
	}
}

// TestDoctorMovesWorktreeRegisteredElsewhere: doctor names the worktree
// outside bh's worktree folder, and --fix moves it there with its work.
func TestDoctorMovesWorktreeRegisteredElsewhere(t *testing.T) {
	s, f, id, old := parkAndMoveState(t)
	f0 := finding(t, doctorT(t, s, false), "worktrees", old)
	if f0.Status != doctor.Warn || !f0.Fixable {
		t.Fatalf("finding: %+v", f0)
	}
	if rep := doctorT(t, s, true); rep.Problems() != 0 {
		t.Fatalf("after --fix: %+v", rep.Findings)
	}
	now := filepath.Join(slots.WorktreeDir(s, mustRepo(t, s).CommonDir()), id)
	if got := slots.WorktreePath(s, mustRepo(t, s), id); got != now || !exists(now, "wip.txt") {
		t.Fatalf("worktree at %s, want it moved to %s with its work", got, now)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("the old worktree is still there: %v", err)
	}
	f.steps = append(f.steps, step(nil, done("Tabs.")))
	runWith(t, s, Options{Runner: f})
	if st := getTask(t, s, id).State; st != task.Closed {
		t.Fatalf("task %s after the move, want closed", st)
	}
}
