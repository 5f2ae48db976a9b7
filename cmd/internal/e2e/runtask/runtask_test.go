package runtask

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bh-tracker/bh/cmd/internal/e2e"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/claims"
)

const fakeConfig = "agent:\n  kind: command\n  command: [fakeagent]\nremote: origin\nlease: 1m\n"

// TestRunTaskLands: the worker hands a task to a pod; bh run-task, given
// its annotations, clones the remote, takes the claim, runs the agent
// and lands the work on the remote's main; the worker then deletes the
// SandboxClaim and has the task closed.
func TestRunTaskLands(t *testing.T) { testLands(t, newCluster) }

// TestK8sTaskLands is TestRunTaskLands against a real API server and the
// agent-sandbox controller: its warm pool's pod, marked Ready, is bound.
func TestK8sTaskLands(t *testing.T) { testLands(t, newK8sCluster) }

type newFunc func(t *testing.T, config string, titles ...string) (*cluster, []string)

func testLands(t *testing.T, newCluster newFunc) {
	cl, ids := newCluster(t, fakeConfig, "Land me")
	agentDir := t.TempDir()
	e2e.Write(t, agentDir, "land.plan", "match Land me\nwrite landed.txt from a pod\nprint {\"status\":\"completed\",\"summary\":\"done\"}\n")
	p := cl.handOut(t)
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
	if !cl.claimGone(t, p) {
		t.Fatal("the SandboxClaim is still there")
	}
}

// TestRunTaskKilled: a pod killed (SIGKILL) while its agent runs leaves
// its task neither lost nor run twice: the claim holds until its lease
// runs out (the worker, told the pod failed, cannot take it back before),
// then the next pod takes it from a fresh clone and lands it once.
func TestRunTaskKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("it waits out a lease: worker/kube's TestRunnerPodFailureRunsNothingTwice holds the rule under -short")
	}
	testKilled(t, newCluster)
}

// TestK8sPodKilled is TestRunTaskKilled against a real API server.
func TestK8sPodKilled(t *testing.T) { testKilled(t, newK8sCluster) }

func testKilled(t *testing.T, newCluster newFunc) {
	cl, ids := newCluster(t, strings.Replace(fakeConfig, "lease: 1m", "lease: 5s", 1), "Kill me")
	agentDir := t.TempDir()
	e2e.Write(t, agentDir, "kill.plan", "match Kill me\nwrite work.txt done\nhang\nprint {\"status\":\"completed\",\"summary\":\"done\"}\n")
	p1 := cl.handOut(t)
	run := cl.runTask(p1, "FAKEAGENT_DIR="+agentDir)
	run.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	run.Stdout, run.Stderr = &out, &out
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(agentDir, "runs.log")); err == nil {
			break // the agent runs
		}
		if time.Now().After(end) {
			t.Fatalf("the pod's agent never started:\n%s", out.String())
		}
	}
	syscall.Kill(-run.Process.Pid, syscall.SIGKILL)
	run.Wait()
	cl.fail(t, p1)
	if err := <-p1.done; err == nil {
		t.Fatal("the worker's run of a failed pod returned no error")
	}
	if err := cl.c.Fetch(); err != nil {
		t.Fatal(err)
	}
	_, held, _ := cl.c.Current(ids[0])
	if held == nil || held.Host != p1.name {
		t.Fatalf("the killed pod's claim: %+v", held)
	}
	tk, err := claims.Next(cl.s, cl.c, claims.WorkerLease("worker", time.Now()), nil, nil)
	if err == nil && time.Now().Before(held.Expires) {
		t.Fatalf("the worker took %s back while the killed pod's lease held", tk.ID)
	}
	e2e.Write(t, agentDir, "release", "")
	var p2 *pod
	if err == nil { // a slow machine: the lease ran out before the check
		p2 = cl.hand(t, tk)
	} else {
		p2 = cl.handOut(t) // once the lease ran out
	}
	cl.run(t, p2, "FAKEAGENT_DIR="+agentDir)
	if err := <-p2.done; err != nil {
		t.Fatalf("the worker's run: %v", err)
	}
	if n := cl.landed(t, ids[0]); n != 1 {
		t.Fatalf("landed %d times", n)
	}
	if got := cl.remoteTask(t, ids[0]); got.State != task.Closed {
		t.Fatalf("on the remote: %s", got.State)
	}
}
