package storegit

import (
	"fmt"
	"os"

	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/worker/git/gittest"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/storegit/storetest"
)

func keptStore(t *testing.T) (*Keeper, *git.Keep) {
	t.Helper()
	s := storetest.New(t)
	kp := NewKeeper(s, func(err error) { t.Errorf("keep: %v", err) })
	s.Keep = kp.Write
	k, err := git.OpenKeep(s.Root)
	if err != nil {
		t.Fatal(err)
	}
	return kp, k
}

// TestKeepEveryWriteButHeartbeats: bh's writes are kept, concurrent ones
// all of them; a renewed lease alone is not (a worker's beats would fill
// .git with objects).
func TestKeepEveryWriteButHeartbeats(t *testing.T) {
	kp, k := keptStore(t)
	s := kp.s
	var wg sync.WaitGroup
	ids := make(chan string, 40)
	for range 8 {
		wg.Go(func() {
			for range 5 {
				tk, err := s.Create(&task.Task{Title: "many"})
				if err != nil {
					t.Error(err)
					return
				}
				ids <- tk.ID
			}
		})
	}
	wg.Wait()
	close(ids)
	files, err := k.Files()
	if err != nil {
		t.Fatal(err)
	}
	var id string
	for id = range ids {
		if files["tasks/"+id+".yaml"] == "" {
			t.Errorf("%s is not kept", id)
		}
	}
	now := time.Now().UTC().Truncate(time.Second)
	if _, err := s.Update(id, func(t *task.Task) error {
		t.State = task.InProgress
		t.Lease = &task.Lease{Worker: "w", PID: 1, Host: "h", Heartbeat: now, StartedAt: now}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	claimed, _ := k.Lookup("tasks/" + id + ".yaml")
	if _, err := s.Update(id, func(t *task.Task) error { t.Lease.Heartbeat = now.Add(time.Minute); return nil }); err != nil {
		t.Fatal(err)
	}
	if got, _ := k.Lookup("tasks/" + id + ".yaml"); got != claimed {
		t.Errorf("a heartbeat was kept: %s, want %s still", got, claimed)
	}
	if lost, err := kp.Check(); err != nil || lost != nil {
		t.Errorf("after a heartbeat: lost %v, %v; want nothing", lost, err)
	}
}

// TestLostStateIsRemembered: a tree that lost a file is compared with
// bh's copies once; until it changes, later commands take the finding
// from the stamp instead of reading every kept file again (issue 44: at
// 10k tasks each command cost 0.5 s while a loss waited for bh doctor).
func TestLostStateIsRemembered(t *testing.T) {
	kp, _ := keptStore(t)
	s := kp.s
	tk := storetest.Add(t, s, "will be lost")
	if lost, err := kp.Check(); err != nil || lost != nil {
		t.Fatalf("before the loss: %v, %v", lost, err)
	}
	if err := os.Remove(s.Path(tk.ID)); err != nil {
		t.Fatal(err)
	}
	lost, err := kp.Check()
	if err != nil || lost == nil || len(lost.Lost) != 1 || !lost.Lost[0].Missing {
		t.Fatalf("after the loss: %v, %v; want the task file gone", lost, err)
	}
	// Were the tree compared again, a keep with nothing in it would find
	// nothing lost: the finding must come from the stamp.
	gittest.Git(t, s.Root, "update-ref", "-d", git.KeepRef)
	again, err := NewKeeper(s, func(error) {}).Check()
	if err != nil || again == nil || len(again.Lost) != 1 || again.Lost[0].Rel != lost.Lost[0].Rel {
		t.Fatalf("the next command: %v, %v; want the remembered loss", again, err)
	}
	// bh's own write elsewhere keeps the finding: nothing it wrote was lost.
	storetest.Add(t, s, "another")
	if again, err := NewKeeper(s, func(error) {}).Check(); err != nil || again == nil || len(again.Lost) != 1 {
		t.Fatalf("after bh wrote another task: %v, %v; want the remembered loss", again, err)
	}
	// A change behind bh's back ends the memory: compared afresh, with
	// nothing kept any more, nothing is lost.
	gittest.Git(t, s.Root, "update-ref", "-d", git.KeepRef)
	gittest.Write(t, s.Dir, "tasks/stray.txt", "the user's\n")
	if after, err := NewKeeper(s, func(error) {}).Check(); err != nil || after != nil {
		t.Fatalf("after the tree changed: %v, %v; want it compared afresh", after, err)
	}
}

// TestFirstCheckTrustsTheIndex: a clone's first command takes the files
// git's index holds as git's to keep, without asking git which of them
// changed (which hashes every file of a fresh clone: issue 44's first
// command after a clone); from the next check on, a file of the index
// that the tree holds changed is bh's to keep.
func TestFirstCheckTrustsTheIndex(t *testing.T) {
	kp, k := keptStore(t)
	s := kp.s
	for i := range manyUnkept + 1 {
		gittest.Write(t, s.Dir, fmt.Sprintf("tasks/tm-%05d.yaml", i), fmt.Sprintf("id: tm-%05d\ntitle: cloned\n", i))
	}
	gittest.Git(t, s.Root, "add", "-A")
	gittest.Git(t, s.Root, "commit", "-q", "-m", "tasks")
	// As a fresh clone stands: no copies, no stamp.
	gittest.Git(t, s.Root, "update-ref", "-d", git.KeepRef)
	if err := os.Remove(k.StampPath()); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	edited := "tasks/tm-00007.yaml"
	gittest.Write(t, s.Dir, edited, "id: tm-00007\ntitle: edited by hand before bh ran\n")
	if lost, err := kp.Check(); err != nil || lost != nil {
		t.Fatalf("first check: %v, %v", lost, err)
	}
	if blob, _ := k.Lookup(edited); blob != "" {
		t.Errorf("the first check kept %s (%s): it should leave the index's files to git", edited, blob)
	}
	gittest.Write(t, s.Dir, "tasks/tm-99999.yaml", "id: tm-99999\ntitle: new\n") // the tree changes
	if lost, err := kp.Check(); err != nil || lost != nil {
		t.Fatalf("next check: %v, %v", lost, err)
	}
	for _, rel := range []string{edited, "tasks/tm-99999.yaml"} {
		if blob, _ := k.Lookup(rel); blob == "" {
			t.Errorf("the next check did not keep %s, which git's index does not hold as it is", rel)
		}
	}
	if blob, _ := k.Lookup("tasks/tm-00008.yaml"); blob != "" {
		t.Errorf("an unchanged file of the index was kept: %s", blob)
	}
}
