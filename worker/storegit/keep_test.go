package storegit

import (
	"sync"
	"testing"
	"time"

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
