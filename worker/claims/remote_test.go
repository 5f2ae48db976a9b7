package claims

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/gittest"
	"github.com/bh-tracker/bh/worker/storegit/storetest"
)

// twoClones makes two clones of one bare remote sharing task tk.
func twoClones(t *testing.T) (s1, s2 *store.Store, r1, r2 *git.Repo, tk *task.Task) {
	t.Helper()
	s1 = storetest.New(t)
	bare := filepath.Join(t.TempDir(), "shared.git")
	gittest.Out(t, s1.Root, "init", "-q", "--bare", bare)
	gittest.Out(t, s1.Root, "remote", "add", "origin", bare)
	tk = storetest.Add(t, s1, "Wanted by two machines")
	gittest.Out(t, s1.Root, "add", ".bh")
	gittest.Out(t, s1.Root, "commit", "-q", "-m", "task")
	gittest.Out(t, s1.Root, "push", "-q", "origin", "HEAD")
	two := filepath.Join(t.TempDir(), "two")
	gittest.Out(t, s1.Root, "clone", "-q", bare, two)
	var err error
	if s2, err = store.Find(two); err != nil {
		t.Fatal(err)
	}
	if r1, err = git.Open(s1.Root); err != nil {
		t.Fatal(err)
	}
	if r2, err = git.Open(two); err != nil {
		t.Fatal(err)
	}
	return s1, s2, r1, r2, tk
}

// TestRemoteClaimGoesToOneMachine: of two machines claiming the same
// ready task, the remote's compare-and-swap gives it to one; released, it
// may be taken again; done, never.
func TestRemoteClaimGoesToOneMachine(t *testing.T) {
	s1, s2, r1, r2, tk := twoClones(t)
	c1 := NewRemote(r1, "origin", time.Minute, time.Now)
	c2 := NewRemote(r2, "origin", time.Minute, time.Now)
	one := task.Lease{Worker: "worker", Host: "one", PID: 1}
	two := task.Lease{Worker: "worker", Host: "two", PID: 2}
	if got, err := Next(s1, c1, one, nil, nil); err != nil || got.ID != tk.ID {
		t.Fatalf("first machine: %v %v", got, err)
	}
	if got, err := Next(s2, c2, two, nil, nil); !errors.Is(err, ErrNothingReady) {
		t.Fatalf("second machine took a held task: %v %v", got, err)
	}
	if err := c1.release(tk.ID, one, false); err != nil {
		t.Fatal(err)
	}
	if got, err := Next(s2, c2, two, nil, nil); err != nil || got.ID != tk.ID {
		t.Fatalf("second machine, after the release: %v %v", got, err)
	}
	if err := c2.release(tk.ID, two, true); err != nil {
		t.Fatal(err)
	}
	if err := c1.Fetch(); err != nil {
		t.Fatal(err)
	}
	if _, err := c1.take(tk.ID, one); !errors.Is(err, ErrClaimed) {
		t.Fatalf("a done claim was taken again: %v", err)
	}
}

// TestHeartbeatLosesATakenClaim: a worker whose remote lease ran out and
// was taken over by another machine hears so on its next beat.
func TestHeartbeatLosesATakenClaim(t *testing.T) {
	s1, _, r1, r2, tk := twoClones(t)
	c1 := NewRemote(r1, "origin", -time.Minute, time.Now) // its claims have run out as they are made
	c2 := NewRemote(r2, "origin", time.Minute, time.Now)
	if _, err := Next(s1, c1, WorkerLease("worker", time.Now()), nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := c2.Fetch(); err != nil {
		t.Fatal(err)
	}
	if _, err := c2.take(tk.ID, task.Lease{Worker: "worker", Host: "two", PID: 2}); err != nil {
		t.Fatalf("the run-out claim was not taken over: %v", err)
	}
	lost := make(chan struct{})
	stop := Heartbeat(s1, c1, tk.ID, Beat{Name: "worker", Now: time.Now, Every: time.Millisecond,
		Lost: func() {
			select {
			case <-lost:
			default:
				close(lost)
			}
		}})
	defer stop()
	select {
	case <-lost:
	case <-time.After(time.Minute):
		t.Fatal("the heartbeat did not notice the claim taken over")
	}
}
