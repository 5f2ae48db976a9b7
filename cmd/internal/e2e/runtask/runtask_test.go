package runtask

import (
	"testing"

	"github.com/bh-tracker/bh/cmd/internal/e2e"
	"github.com/bh-tracker/bh/task"
)

const fakeConfig = "agent:\n  kind: command\n  command: [fakeagent]\nremote: origin\nlease: 1m\n"

// TestRunTaskLands: the worker hands a task to a pod; bh run-task, given
// its annotations, clones the remote, takes the claim, runs the agent
// and lands the work on the remote's main; the worker then deletes the
// SandboxClaim and has the task closed.
func TestRunTaskLands(t *testing.T) {
	cl, ids := newCluster(t, fakeConfig, "Land me")
	agentDir := t.TempDir()
	e2e.Write(t, agentDir, "land.plan", "match Land me\nwrite landed.txt from a pod\nprint {\"status\":\"completed\",\"summary\":\"done\"}\n")
	p, _ := cl.handOut(t)
	cl.run(t, p, "FAKEAGENT_DIR="+agentDir)
	if err := <-p.done; err != nil {
		t.Fatalf("the worker's run: %v", err)
	}
	if n := cl.landed(t, ids[0]); n != 1 {
		t.Fatalf("landed %d times on the remote", n)
	}
	if got := cl.remoteTask(t, ids[0]); got.State != task.Closed {
		t.Fatalf("on the remote: %s", got.State)
	}
	if got, err := cl.s.Get(ids[0]); err != nil || got.State != task.Closed {
		t.Fatalf("in the worker's clone: %v %v", got, err)
	}
	if _, err := cl.client.Resource(kubeClaims()).Namespace("bh").Get(t.Context(), p.claim.GetName(), getOpts); err == nil {
		t.Fatal("the SandboxClaim is still there")
	}
}
