package runtask

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/cmd/internal/e2e"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker"
)

const fakeConfig = "agent:\n  kind: command\n  command: [fakeagent]\nremote: origin\nlease: 1m\n"

// TestRunTaskLands: the worker runs a task's agent in a pod; bh run-task,
// given its annotations, checks out the run's input, runs the agent,
// which cannot push (it tries: to main, and its result ref), and leaves
// its result, which the helper pushes; the worker takes it, lands the
// work on the remote's main, closes the task and deletes the
// SandboxClaim and the run's refs.
func TestRunTaskLands(t *testing.T) { testLands(t, newCluster) }

// TestK8sTaskLands is TestRunTaskLands against a real API server and the
// agent-sandbox controller: its warm pool's pod, marked Ready, is bound.
func TestK8sTaskLands(t *testing.T) { testLands(t, newK8sCluster) }

type newFunc func(t *testing.T, config string, titles ...string) (*cluster, []string)

func testLands(t *testing.T, newCluster newFunc) {
	cl, ids := newCluster(t, fakeConfig, "Land me")
	agentDir := t.TempDir()
	e2e.Write(t, agentDir, "land.plan", "match Land me\nwrite landed.txt from a pod\n"+
		"sh git commit -qam sneak --allow-empty; ! git push -q \"$BH_REMOTE\" HEAD:refs/heads/main HEAD:refs/bh/results/"+ids[0]+"\n"+
		"print {\"status\":\"completed\",\"summary\":\"done\"}\n")
	done := cl.work(t)
	p := cl.next(t, ids[0], done)
	cl.run(t, p, "FAKEAGENT_DIR="+agentDir)
	if err := <-done; err != nil {
		t.Fatalf("the worker: %v", err)
	}
	if _, err := worker.Sync(cl.s, "", true); err != nil { // the worker's autoSync
		t.Fatal(err)
	}
	if n := cl.landed(t, ids[0]); n != 1 {
		t.Fatalf("landed %d times on the remote", n)
	}
	if got := e2e.Git(t, cl.root, "--git-dir", cl.remote, "show", "main:landed.txt"); got != "from a pod" {
		t.Fatalf("landed.txt on the remote's main: %q", got)
	}
	if got := cl.remoteTask(t, ids[0]); got.State != task.Closed {
		t.Fatalf("on the remote: %s", got.State)
	}
	if !cl.claimGone(t, p) {
		t.Fatal("the SandboxClaim is still there")
	}
	if refs := e2e.Git(t, cl.root, "--git-dir", cl.remote, "for-each-ref", "refs/bh/runs", "refs/bh/results"); refs != "" {
		t.Fatalf("the run's refs are left:\n%s", refs)
	}
}

// TestRunTaskRefusesStoreChanges: a pod whose agent writes into bh's
// store (a task of its own making, with a command for local workers to
// run) hands back a result the worker refuses: nothing of it lands, and
// no task file appears.
func TestRunTaskRefusesStoreChanges(t *testing.T) { testRefuses(t, newCluster) }

// TestK8sRefusesStoreChanges is TestRunTaskRefusesStoreChanges against a
// real API server.
func TestK8sRefusesStoreChanges(t *testing.T) { testRefuses(t, newK8sCluster) }

func testRefuses(t *testing.T, newCluster newFunc) {
	cl, ids := newCluster(t, fakeConfig, "Tamper")
	agentDir := t.TempDir()
	evil := ".bh/tasks/tm-evil.yaml"
	e2e.Write(t, agentDir, "tamper.plan", "match Tamper\nwrite evil.txt x\n"+
		"write "+evil+" {id: tm-evil, title: Evil, agent: {kind: command, command: [sh, -c, id]}}\n"+
		"print {\"status\":\"completed\",\"summary\":\"done\"}\n")
	done := cl.work(t)
	p := cl.next(t, ids[0], done)
	cl.run(t, p, "FAKEAGENT_DIR="+agentDir)
	for !cl.claimGone(t, p) { // the refused run ended; a worker that tries again would wait for a pod
		time.Sleep(20 * time.Millisecond)
	}
	cl.stop()
	<-done
	if _, err := worker.Sync(cl.s, "", true); err != nil {
		t.Fatal(err)
	}
	if n := cl.landed(t, ids[0]); n != 0 {
		t.Fatalf("a refused result landed %d times", n)
	}
	files := e2e.Git(t, cl.root, "--git-dir", cl.remote, "ls-tree", "-r", "--name-only", "main")
	if _, err := os.Stat(filepath.Join(cl.s.Root, evil)); strings.Contains(files, "evil") || err == nil {
		t.Fatalf("the refused work reached the remote's main or the worker's clone:\n%s", files)
	}
	if got, err := cl.s.Get(ids[0]); err != nil || got.State == task.Closed {
		t.Fatalf("the task after a refused result: %+v, %v", got, err)
	}
}
