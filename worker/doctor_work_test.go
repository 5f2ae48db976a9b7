package worker

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/doctor"
	"github.com/bh-tracker/bh/worker/slots"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
)

// parkedWork gives task id a worktree with a change, snapshotted under
// its park ref as the worker does when it parks a task.
func parkedWork(t *testing.T, s *store.Store, id string) (*git.Repo, *git.Worktree) {
	t.Helper()
	r, err := git.Open(s.Root)
	if err != nil {
		t.Fatal(err)
	}
	head, _ := r.Head()
	wt, _, err := r.EnsureWorktree(slots.WorktreePath(s, r, id), slots.Branch(id), head, s.Root)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, wt.Path, "wip.txt", "half done\n")
	snap, _, err := wt.Snapshot(head, "bh: park\n")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetRef(git.ParkRef(id), snap, "test"); err != nil {
		t.Fatal(err)
	}
	return r, wt
}

func TestDoctorCleansUpAfterClosedTasks(t *testing.T) {
	t.Parallel()
	s := doctorStore(t)
	closed := addTask(t, s, "Closed by hand while it waited")
	waiting := addTask(t, s, "Still waiting")
	_, wt := parkedWork(t, s, closed.ID)
	_, keep := parkedWork(t, s, waiting.ID)
	if _, err := s.Update(closed.ID, func(t *task.Task) error { return t.SetState(task.Closed, now(s), "test", "") }); err != nil {
		t.Fatal(err)
	}
	rep := doctorT(t, s, false)
	// its work is in the parked ref, not on HEAD: the fix says so
	if f := finding(t, rep, "worktrees", wt.Path); !strings.Contains(f.Fix, "its work stays in "+git.ParkRef(closed.ID)) {
		t.Errorf("the fix speaks of HEAD: %s", f.Fix)
	}
	finding(t, rep, "parked", git.ParkRef(closed.ID))
	if rep.Problems() != 2 {
		t.Fatalf("an open task's work is no problem: %+v", rep.Findings)
	}
	if rep := doctorT(t, s, true); rep.Problems() != 0 {
		t.Fatalf("after --fix: %+v", rep.Findings)
	}
	if exists(wt.Path, "") || refExists(s.Root, git.ParkRef(closed.ID)) || refExists(s.Root, "refs/heads/"+slots.Branch(closed.ID)) {
		t.Fatal("the closed task's worktree, ref or (merged) branch is left")
	}
	// its work, on no branch, is kept, never deleted
	if !refExists(s.Root, doctor.KeptRef(closed.ID)) || gitT(t, s.Root, "show", doctor.KeptRef(closed.ID)+":wip.txt") == "" {
		t.Fatal("the closed task's unlanded work was deleted")
	}
	if !exists(keep.Path, "wip.txt") || !refExists(s.Root, git.ParkRef(waiting.ID)) {
		t.Fatal("the open task's parked work went")
	}
}

func TestDoctorKeepsChangesBhNeverSaved(t *testing.T) {
	t.Parallel()
	s := doctorStore(t)
	tk := addTask(t, s, "Closed")
	_, wt := parkedWork(t, s, tk.ID)
	writeFile(t, wt.Path, "later.txt", "written after the park\n")
	if _, err := s.Update(tk.ID, func(t *task.Task) error { return t.SetState(task.Closed, now(s), "test", "") }); err != nil {
		t.Fatal(err)
	}
	f := finding(t, doctorT(t, s, true), "worktrees", wt.Path)
	if f.Status != doctor.Warn || f.Fixable {
		t.Fatalf("unsaved changes: %+v", f)
	}
	if readFile(t, wt.Path, "later.txt") != "written after the park\n" {
		t.Fatal("unsaved work was lost")
	}
}

func TestDoctorRestoresLostParkedWork(t *testing.T) {
	t.Parallel()
	s := doctorStore(t)
	tk := addTask(t, s, "Waits")
	r, wt := parkedWork(t, s, tk.ID)
	snap, _ := r.Ref(git.ParkRef(tk.ID))
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
	if err := r.DeleteRef(git.ParkRef(tk.ID)); err != nil {
		t.Fatal(err)
	}
	if f := finding(t, doctorT(t, s, false), "parked", tk.ID); f.Status != doctor.Warn || !f.Fixable {
		t.Fatalf("lost parked work: %+v", f)
	}
	doctorT(t, s, true)
	if got, _ := r.Ref(git.ParkRef(tk.ID)); got != snap {
		t.Fatalf("park ref after --fix: %q, want %s", got, snap)
	}
}
