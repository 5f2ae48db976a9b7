package worker

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/repo"
)

// doctorT runs Doctor and fails the test on its error.
func doctorT(t *testing.T, s *task.Store, fix bool) Report {
	t.Helper()
	rep, err := Doctor(s, fix)
	if err != nil {
		t.Fatalf("doctor: %v", err)
	}
	return rep
}

// finding is the one finding of check about subject, or fails the test.
func finding(t *testing.T, rep Report, check, subject string) Finding {
	t.Helper()
	for _, f := range rep.Findings {
		if f.Check == check && f.Subject == subject {
			return f
		}
	}
	t.Fatalf("no %s finding about %s in %+v", check, subject, rep.Findings)
	return Finding{}
}

// doctorStore is newStore as bh init leaves it: git knows bh's merge driver.
func doctorStore(t *testing.T) *task.Store {
	s := newStore(t)
	if err := RegisterMergeDriver(s.Root); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDoctorHealthy(t *testing.T) {
	s := newStore(t) // task.Init alone: no merge driver yet
	addTask(t, s, "Fine")
	f := finding(t, doctorT(t, s, false), "remote", "merge.bh-task")
	if f.Status != DoctorError || !f.Fixable {
		t.Fatalf("no merge driver: %+v", f)
	}
	doctorT(t, s, true)
	rep := doctorT(t, s, false)
	if rep.Problems() != 0 || len(rep.Findings) == 0 {
		t.Fatalf("after --fix: %+v", rep.Findings)
	}
	if out := gitT(t, s.Root, "config", "merge.bh-task.driver"); out != "bh merge-file %O %A %B %P" {
		t.Fatalf("merge driver: %q", out)
	}
}

// deadPID is the id of a process that has exited.
func deadPID(t *testing.T) int {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestDoctorRecoversADeadWorkersTask(t *testing.T) {
	s := doctorStore(t)
	dead := addTask(t, s, "Its worker died")
	hand := addTask(t, s, "Claimed by hand")
	other := addTask(t, s, "Untouched")
	writeFile(t, s.Root, "mine.txt", "the user's\n")
	lease := workerLease("worker", now(s))
	lease.PID = deadPID(t)
	if _, err := Claim(s, dead.ID, lease); err != nil {
		t.Fatal(err)
	}
	if _, err := Claim(s, hand.ID, HandLease(now(s))); err != nil {
		t.Fatal(err)
	}
	before := readFile(t, s.Root, ".bh/tasks/"+other.ID+".yaml")

	rep := doctorT(t, s, false)
	if f := finding(t, rep, "leases", dead.ID); f.Status != DoctorError || !f.Fixable {
		t.Fatalf("dead lease: %+v", f)
	}
	if f := finding(t, rep, "leases", hand.ID); f.Status != DoctorOK {
		t.Fatalf("a hand claim is only reported: %+v", f)
	}
	if got := getTask(t, s, dead.ID); got.State != task.InProgress {
		t.Fatalf("without --fix the task moved: %s", got.State)
	}

	rep = doctorT(t, s, true)
	if f := finding(t, rep, "leases", dead.ID); f.Status != DoctorFixed {
		t.Fatalf("after --fix: %+v", f)
	}
	if got := getTask(t, s, dead.ID); got.State != task.Open || got.Lease != nil {
		t.Fatalf("recovered task: %s %+v", got.State, got.Lease)
	}
	if got := getTask(t, s, hand.ID); got.State != task.InProgress || got.Lease.Worker != HandWorker {
		t.Fatalf("the hand claim was touched: %s %+v", got.State, got.Lease)
	}
	if readFile(t, s.Root, ".bh/tasks/"+other.ID+".yaml") != before || readFile(t, s.Root, "mine.txt") != "the user's\n" {
		t.Fatal("doctor --fix changed what it had no business with")
	}
	if rep := doctorT(t, s, false); rep.Problems() != 0 {
		t.Fatalf("still: %+v", rep.Findings)
	}
}

func TestDoctorLeavesAWorkersTasksToIt(t *testing.T) {
	s := doctorStore(t)
	tk := addTask(t, s, "Its worker died")
	lease := workerLease("worker", now(s))
	lease.PID = deadPID(t)
	if _, err := Claim(s, tk.ID, lease); err != nil {
		t.Fatal(err)
	}
	unlock, err := lockWorker(s.Dir, now(s)) // a worker runs here
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	f := finding(t, doctorT(t, s, true), "leases", tk.ID)
	if f.Status != DoctorError || f.Fixable {
		t.Fatalf("with a worker running: %+v", f)
	}
	if got := getTask(t, s, tk.ID); got.State != task.InProgress {
		t.Fatalf("the task moved under a running worker: %s", got.State)
	}
}

func TestDoctorNeverRewritesBrokenFilesOrCycles(t *testing.T) {
	s := doctorStore(t)
	a := addTask(t, s, "A")
	b := addTask(t, s, "B", a.ID)
	if _, err := s.Update(a.ID, func(t *task.Task) error { t.DependsOn = []string{b.ID}; return nil }); err != nil {
		t.Fatal(err)
	}
	writeFile(t, s.Root, ".bh/tasks/tm-bad1.yaml", "id: tm-bad1\ntitle: Bad\nstate: sleeping\n")
	rep := doctorT(t, s, true)
	if f := finding(t, rep, "store", ".bh/tasks/tm-bad1.yaml"); f.Status != DoctorError || f.Fixable {
		t.Fatalf("malformed file: %+v", f)
	}
	if f := finding(t, rep, "store", min(a.ID, b.ID)); f.Status != DoctorWarn {
		t.Fatalf("cycle: %+v", f)
	}
	if readFile(t, s.Root, ".bh/tasks/tm-bad1.yaml") != "id: tm-bad1\ntitle: Bad\nstate: sleeping\n" {
		t.Fatal("the broken file was rewritten")
	}
}

func TestDoctorRemovesStrayLocksAndTemp(t *testing.T) {
	s := doctorStore(t)
	tk := addTask(t, s, "Has a lock")
	old := time.Now().Add(-2 * time.Minute)
	for _, p := range []string{"locks/tm-gone.lock", "locks/" + tk.ID + ".lock", "tmp/write-123"} {
		writeFile(t, s.Dir, p, "")
		os.Chtimes(filepath.Join(s.Dir, p), old, old)
	}
	rep := doctorT(t, s, false)
	finding(t, rep, "locks", ".bh/locks/tm-gone.lock")
	finding(t, rep, "locks", ".bh/tmp")
	if rep.Problems() != 2 {
		t.Fatalf("a live task's lock is no problem: %+v", rep.Findings)
	}
	if rep := doctorT(t, s, true); rep.Problems() != 0 {
		t.Fatalf("after --fix: %+v", rep.Findings)
	}
	if exists(s.Dir, "locks/tm-gone.lock") || exists(s.Dir, "tmp/write-123") || !exists(s.Dir, "locks/"+tk.ID+".lock") {
		t.Fatal("the wrong files went")
	}
}

// parkedWork gives task id a worktree with a change, snapshotted under
// its park ref as the worker does when it parks a task.
func parkedWork(t *testing.T, s *task.Store, id string) (*repo.Repo, *repo.Worktree) {
	t.Helper()
	r, err := repo.Open(s.Root)
	if err != nil {
		t.Fatal(err)
	}
	head, _ := r.Head()
	wt, _, err := r.EnsureWorktree(WorktreePath(s, r, id), Branch(id), head, s.Root)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, wt.Path, "wip.txt", "half done\n")
	snap, _, err := wt.Snapshot(head, "bh: park\n")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetRef(ParkRef(id), snap, "test"); err != nil {
		t.Fatal(err)
	}
	return r, wt
}

func TestDoctorCleansUpAfterClosedTasks(t *testing.T) {
	s := doctorStore(t)
	closed := addTask(t, s, "Closed by hand while it waited")
	waiting := addTask(t, s, "Still waiting")
	_, wt := parkedWork(t, s, closed.ID)
	_, keep := parkedWork(t, s, waiting.ID)
	if _, err := s.Update(closed.ID, func(t *task.Task) error { return t.SetState(task.Closed, now(s), "test", "") }); err != nil {
		t.Fatal(err)
	}
	rep := doctorT(t, s, false)
	finding(t, rep, "worktrees", wt.Path)
	finding(t, rep, "parked", ParkRef(closed.ID))
	if rep.Problems() != 2 {
		t.Fatalf("an open task's work is no problem: %+v", rep.Findings)
	}
	if rep := doctorT(t, s, true); rep.Problems() != 0 {
		t.Fatalf("after --fix: %+v", rep.Findings)
	}
	if exists(wt.Path, "") || refExists(s.Root, ParkRef(closed.ID)) || refExists(s.Root, "refs/heads/"+Branch(closed.ID)) {
		t.Fatal("the closed task's worktree, ref or (merged) branch is left")
	}
	if !exists(keep.Path, "wip.txt") || !refExists(s.Root, ParkRef(waiting.ID)) {
		t.Fatal("the open task's parked work went")
	}
}

func TestDoctorKeepsChangesBhNeverSaved(t *testing.T) {
	s := doctorStore(t)
	tk := addTask(t, s, "Closed")
	_, wt := parkedWork(t, s, tk.ID)
	writeFile(t, wt.Path, "later.txt", "written after the park\n")
	if _, err := s.Update(tk.ID, func(t *task.Task) error { return t.SetState(task.Closed, now(s), "test", "") }); err != nil {
		t.Fatal(err)
	}
	f := finding(t, doctorT(t, s, true), "worktrees", wt.Path)
	if f.Status != DoctorWarn || f.Fixable {
		t.Fatalf("unsaved changes: %+v", f)
	}
	if readFile(t, wt.Path, "later.txt") != "written after the park\n" {
		t.Fatal("unsaved work was lost")
	}
}

func TestDoctorRestoresLostParkedWork(t *testing.T) {
	s := doctorStore(t)
	tk := addTask(t, s, "Waits")
	r, wt := parkedWork(t, s, tk.ID)
	snap, _ := r.Ref(ParkRef(tk.ID))
	if _, err := s.Update(tk.ID, func(t *task.Task) error {
		t.State = task.AwaitingInput
		t.Record(now(s), task.Event{Kind: task.EventRunFinished, By: "worker", Status: "needs_input"})
		t.Record(now(s), task.Event{Kind: task.EventParked, By: "worker", Commit: snap})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := r.RemoveWorktree(wt.Path, ""); err != nil {
		t.Fatal(err)
	}
	if err := r.DeleteRef(ParkRef(tk.ID)); err != nil {
		t.Fatal(err)
	}
	if f := finding(t, doctorT(t, s, false), "parked", tk.ID); f.Status != DoctorWarn || !f.Fixable {
		t.Fatalf("lost parked work: %+v", f)
	}
	doctorT(t, s, true)
	if got, _ := r.Ref(ParkRef(tk.ID)); got != snap {
		t.Fatalf("park ref after --fix: %q, want %s", got, snap)
	}
}
