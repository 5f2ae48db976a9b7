package worker

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/doctor"
	"github.com/bh-tracker/bh/worker/slots"
	"github.com/bh-tracker/bh/worker/storegit/storetest"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
)

// sharedStore is doctorStore with a bare remote, origin, named by remote:
// in the config and holding its branch.
func sharedStore(t *testing.T) (*store.Store, *git.Repo, string) {
	t.Helper()
	s := doctorStore(t)
	s, bare := storetest.Share(t, s)
	r, err := git.Open(s.Root)
	if err != nil {
		t.Fatal(err)
	}
	return s, r, bare
}

func remoteRef(t *testing.T, bare, ref string) string {
	return gitT(t, bare, "for-each-ref", "--format=%(objectname)", ref)
}

func TestDoctorClaims(t *testing.T) {
	t.Parallel()
	s, r, bare := sharedStore(t)
	released := addTask(t, s, "Its worker left the claim held")
	away := addTask(t, s, "Held by a machine that went quiet")
	gitT(t, s.Root, "add", ".bh")
	gitT(t, s.Root, "commit", "-q", "-m", "task")
	gitT(t, s.Root, "push", "-q", "origin", "HEAD")
	c := claims.NewRemote(r, "origin", time.Minute, time.Now)
	mine := claims.WorkerLease("worker", time.Now())
	for _, id := range []string{released.ID, "tm-gone"} {
		if err := c.Push(id, "", claims.Held, mine); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Push("tm-gone", c.Mine("tm-gone"), claims.Released, mine); err != nil {
		t.Fatal(err)
	}
	// another machine's claims, run out long ago: of a task, and of one only it knows
	other := claims.NewRemote(r, "origin", time.Minute, func() time.Time { return time.Now().Add(-time.Hour) })
	for _, id := range []string{away.ID, "tm-notyet"} {
		if err := other.Push(id, "", claims.Held, task.Lease{Worker: "worker", Host: "gone-host", PID: 7}); err != nil {
			t.Fatal(err)
		}
	}
	gitT(t, s.Root, "update-ref", "-d", claims.Seen+"tm-gone") // as if fetched by another clone

	rep := doctorT(t, s, false)
	for _, id := range []string{released.ID, "tm-gone", away.ID, "tm-notyet"} {
		if f := finding(t, rep, "claims", claims.Ref(id)); f.Status != doctor.Warn {
			t.Fatalf("%s: %+v", id, f)
		}
	}
	if f := finding(t, rep, "claims", claims.Ref(away.ID)); f.Fixable || !strings.Contains(f.Message, "ran out") {
		t.Fatalf("another machine's claim that ran out is only reported: %+v", f)
	}
	if f := finding(t, rep, "claims", claims.Ref("tm-notyet")); f.Fixable || !strings.Contains(f.Message, "exists neither") {
		t.Fatalf("a held claim of a task that exists nowhere is only reported: %+v", f)
	}
	awayClaims := remoteRef(t, bare, claims.Ref(away.ID)) + remoteRef(t, bare, claims.Ref("tm-notyet"))

	doctorT(t, s, true)
	if got := remoteRef(t, bare, claims.Ref("tm-gone")); got != "" {
		t.Fatalf("the claim of a task that exists nowhere is still on the remote: %s", got)
	}
	cl, err := c.Read(remoteRef(t, bare, claims.Ref(released.ID)))
	if err != nil || cl.State != claims.Released {
		t.Fatalf("this clone's stale claim: %+v %v", cl, err)
	}
	if remoteRef(t, bare, claims.Ref(away.ID))+remoteRef(t, bare, claims.Ref("tm-notyet")) != awayClaims {
		t.Fatal("another machine's claims were touched")
	}
}

func TestDoctorRemoteParkedRefs(t *testing.T) {
	t.Parallel()
	s, r, bare := sharedStore(t)
	closed := addTask(t, s, "Closed")
	r2, _ := parkedWork(t, s, closed.ID)
	if err := r2.PushRefs("origin", git.ParkRef(closed.ID)); err != nil {
		t.Fatal(err)
	}
	if err := r.RemoveWorktree(slots.WorktreePath(s, r, closed.ID), slots.Branch(closed.ID)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(closed.ID, func(t *task.Task) error { return t.SetState(task.Closed, now(s), "test", "") }); err != nil {
		t.Fatal(err)
	}
	rep := doctorT(t, s, false)
	if f := finding(t, rep, "parked", git.ParkRef(closed.ID)); !strings.Contains(f.Message, "here and on origin") {
		t.Fatalf("parked work of a closed task: %+v", f)
	}
	if f := finding(t, rep, "remote", ".bh"); f.Status != doctor.Warn || !strings.Contains(f.Fix, "bh sync") {
		t.Fatalf("uncommitted task changes on a shared store: %+v", f)
	}
	doctorT(t, s, true)
	if refExists(s.Root, git.ParkRef(closed.ID)) || remoteRef(t, bare, git.ParkRef(closed.ID)) != "" {
		t.Fatal("the closed task's parked work is still kept")
	}
	if !refExists(s.Root, doctor.KeptRef(closed.ID)) {
		t.Fatal("the closed task's unlanded work was deleted, not kept")
	}
}

func TestDoctorUnreachableRemote(t *testing.T) {
	t.Parallel()
	s, _, bare := sharedStore(t)
	if err := os.RemoveAll(bare); err != nil {
		t.Fatal(err)
	}
	rep := doctorT(t, s, true)
	if f := finding(t, rep, "remote", "origin"); f.Status != doctor.Warn || !strings.Contains(f.Message, "not checked") {
		t.Fatalf("unreachable remote: %+v", f)
	}
}
