package storegit

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git/gittest"
	"github.com/bh-tracker/bh/worker/storegit/storetest"
)

// resetDuringAWrite makes a store whose tree was found whole, answers
// task a, and has git reset --hard take the answer back while bh writes
// task w (a running worker's heartbeat): the write's stamp takes the
// reset in unseen. It returns the keeper and the two tasks.
func resetDuringAWrite(t *testing.T) (kp *Keeper, a, w *task.Task) {
	t.Helper()
	kp, _ = keptStore(t)
	s := kp.s
	a = storetest.Add(t, s, "answered")
	w = storetest.Add(t, s, "running")
	old := gittest.Read(t, s.Dir, "tasks/"+a.ID+".yaml")
	if lost, err := kp.Check(); err != nil || lost != nil {
		t.Fatalf("before: %v, %v", lost, err)
	}
	if _, err := s.Update(a.ID, func(t *task.Task) error {
		t.Description = "the answer"
		t.History = append(t.History, task.Event{Kind: "updated"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	data := []byte(gittest.Read(t, s.Dir, "tasks/"+w.ID+".yaml") + "# a beat\n")
	if err := kp.Write("tasks/"+w.ID+".yaml", data, func() error {
		gittest.Write(t, s.Dir, "tasks/"+a.ID+".yaml.tmp", old) // git reset --hard, meanwhile
		if err := os.Rename(s.Path(a.ID)+".tmp", s.Path(a.ID)); err != nil {
			return err
		}
		return os.WriteFile(s.Path(w.ID), data, 0o644)
	}); err != nil {
		t.Fatal(err)
	}
	return kp, a, w
}

// TestResetDuringAWriteIsNoticedLater: git reset --hard takes an answer
// back while bh writes another task file (a running worker's heartbeat).
// bh's stamp after its write cannot tell the reset from its own rename,
// but it keeps the time the tree was last found whole: the next change
// from outside compares the taken-back file, and its loss is reported
// (it was hidden for good: keep_reset's flake, task tm-srjl).
func TestResetDuringAWriteIsNoticedLater(t *testing.T) {
	kp, a, w := resetDuringAWrite(t)
	s := kp.s
	// bh writes on, in a later second than the reset (the comparison
	// reads only files changed in or after the second the tree was last
	// found whole).
	for second := time.Now().Unix(); time.Now().Unix() == second; {
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := s.Update(w.ID, func(t *task.Task) error { t.Description = "working"; return nil }); err != nil {
		t.Fatal(err)
	}
	gittest.Write(t, s.Dir, "tasks/stray.txt", "the user's\n") // the next change from outside
	lost, err := kp.Check()
	if err != nil || lost == nil || len(lost.Lost) != 1 || lost.Lost[0].Rel != "tasks/"+a.ID+".yaml" || lost.Lost[0].Missing {
		t.Fatalf("after the next change: %v, %v; want the answer's file older than bh wrote", lost, err)
	}
}

// TestWorkerComparesARestampedTree: a worker about to claim compares a
// tree it has only re-stamped, once recompare has passed since it was
// last found whole, and puts back the answer a reset took back during
// one of its writes; a tree compared within recompare is trusted.
func TestWorkerComparesARestampedTree(t *testing.T) {
	kp, a, _ := resetDuringAWrite(t)
	s := kp.s
	k, err := kp.keep()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now() // as if the tree was found whole just now, however slow the machine
	if err := os.Chtimes(k.StampPath(), now, now); err != nil {
		t.Fatal(err)
	}
	if said := RestoreOlder(s); len(said) != 0 {
		t.Fatalf("within recompare of the last comparison: %q; want the stamp trusted", said)
	}
	long := time.Now().Add(-2 * recompare) // as if the tree was last compared that long ago
	if err := os.Chtimes(k.StampPath(), long, long); err != nil {
		t.Fatal(err)
	}
	said := RestoreOlder(s)
	if len(said) != 1 || !strings.Contains(said[0], "restored .bh/tasks/"+a.ID+".yaml") {
		t.Fatalf("after recompare: %q; want the answer's file restored", said)
	}
	if got := storetest.Get(t, s, a.ID); got.Description != "the answer" {
		t.Errorf("the answer's task holds %q", got.Description)
	}
}
