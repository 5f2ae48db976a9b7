package worker

import (
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/claims"
)

func TestWorkerLeavesHandClaimsAlone(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := addTask(t, s, "Mine")
	old := claims.HandLease(time.Now().Add(-24 * time.Hour)) // ancient heartbeat
	if _, err := claims.Claim(s, tk.ID, old, nil); err != nil {
		t.Fatal(err)
	}
	f := &fake{}
	runOnce(t, s, f)
	if len(f.requests()) != 0 {
		t.Fatal("worker ran a hand-claimed task")
	}
	if got := getTask(t, s, tk.ID); got.State != task.InProgress || got.Lease.Worker != claims.HandWorker {
		t.Fatalf("hand claim was recovered: %+v", got)
	}
}
