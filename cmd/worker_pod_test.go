//go:build linux

package cmd

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
)

// A worker in a pod is stopped by SIGTERM (a rollout, a drained node):
// before it exits, its run's parked work, the session and the released
// claim must be on the remote, where the next pod, in a clone of its own,
// takes the task and resumes the same session. The pods here are two
// clones of one bare remote.

const podPlans = `-- hang.plan --
match Pod Q
on first
write wip.txt half
sh touch "$FAKEAGENT_DIR/hung"
hang
on resume
need wip.txt
write done.txt done
print {"status":"completed","summary":"done"}
`

const podConfig = "remote: origin\nautoSync: 1h\nlease: 1m\n"

// TestWorkerPodSIGTERMHandsOver, with the fake command agent.
func TestWorkerPodSIGTERMHandsOver(t *testing.T) {
	t.Parallel()
	c := newTwoClones(t, "agent:\n  kind: command\n  command: [fakeagent]\n"+podConfig, podPlans, []string{"Pod Q"}, "a", "b")
	id := c.ids["Pod Q"]
	c.sigtermWhile(t, nil, func() bool { return fileExists(c.agentDir, "hung") })
	c.handedOver(t, id)
	c.resumeIn(t, "b", nil, id)
	if fresh, strange := c.runs(t); fresh[id] != 1 || strange[id] != 0 {
		t.Errorf("%d fresh runs and %d in another session, want 1 and 0", fresh[id], strange[id])
	}
}

// TestWorkerPodSIGTERMHandsOverClaude, with the real claude: its session
// travels as refs/bh/sessions/<id>, and the next pod's claude resumes it
// (its request carries the first run's Write of wip.txt).
func TestWorkerPodSIGTERMHandsOverClaude(t *testing.T) {
	t.Parallel()
	var stopped, hung atomic.Bool
	var mu sync.Mutex
	var resumed []*fakeapi.Request
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		switch {
		case stopped.Load():
			mu.Lock()
			resumed = append(resumed, req)
			mu.Unlock()
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "done"}))
		case len(req.ToolResults()) == 0:
			return fakeapi.Reply(fakeapi.Write("wip.txt", "half\n"))
		}
		hung.Store(true) // wip.txt is written and its result sent: the run hangs on
		return fakeapi.Hang()
	})
	claude := fakeapi.Claude(t)
	c := newTwoClones(t, "agent:\n  kind: claude\n  binary: "+claude+"\n  timeout: "+realTimeout+"\n"+podConfig, "", []string{"Pod Q"}, "a", "b")
	id, env := c.ids["Pod Q"], fakeapi.Env(t, srv)
	c.sigtermWhile(t, env, hung.Load)
	stopped.Store(true)
	session := c.handedOver(t, id)
	if _, err := c.gitRemote(t, "show", "refs/bh/sessions/"+id+":"+session+".jsonl"); err != nil {
		t.Errorf("the session %s is not on the remote: %v", session, err)
	}
	c.resumeIn(t, "b", env, id)
	mu.Lock()
	defer mu.Unlock()
	if len(resumed) == 0 || !wrote(resumed[0], "wip.txt") {
		t.Errorf("b's claude did not resume the session: %d requests", len(resumed))
	}
}

// sigtermWhile starts a's worker, sends it SIGTERM once hung says its
// agent hangs, and waits for it to exit by itself.
func (c *twoClones) sigtermWhile(t *testing.T, env []string, hung func() bool) {
	t.Helper()
	w := c.cmd("a", env, "worker")
	var out strings.Builder
	w.Stdout, w.Stderr = &out, &out
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- w.Wait() }()
	eventually(t, 3*time.Minute, "a's agent never started", func() bool {
		select {
		case err := <-ended:
			t.Fatalf("a's worker ended before its agent hung: %v\n%s", err, out.String())
		default:
		}
		return hung()
	})
	sent := time.Now()
	if err := w.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := <-ended; err != nil { // no bound but the test's: the worker must end by itself
		t.Fatalf("a's worker after SIGTERM: %v\n%s", err, out.String())
	}
	// The StatefulSet's terminationGracePeriodSeconds must cover this.
	t.Logf("a's worker exited %s after SIGTERM:\n%s", time.Since(sent).Round(time.Millisecond), out.String())
}

// handedOver checks that the remote has what another clone needs to take
// task id over: its claim released, its work parked, its file open (and
// not in progress). It returns the task's session.
func (c *twoClones) handedOver(t *testing.T, id string) string {
	t.Helper()
	if claim, err := c.gitRemote(t, "show", "refs/bh/claims/"+id+":claim.json"); err != nil || !strings.Contains(claim, `"state": "released"`) {
		t.Errorf("the claim is not released on the remote (%v):\n%s", err, claim)
	}
	if _, err := c.gitRemote(t, "rev-parse", "--verify", "refs/bh/parked/"+id); err != nil {
		t.Errorf("the parked work is not on the remote: %v", err)
	}
	file, err := c.gitRemote(t, "show", "main:.bh/tasks/"+id+".yaml")
	if err != nil || !strings.Contains(file, "state: open") {
		t.Errorf("the remote's task file is not open (%v):\n%s", err, file)
	}
	_, after, _ := strings.Cut(file, "sessionId: ")
	session, _, _ := strings.Cut(after, "\n")
	return strings.TrimSpace(session)
}

// resumeIn runs one worker pass in clone name, which must take task id
// over and land it with the parked work.
func (c *twoClones) resumeIn(t *testing.T, name string, env []string, id string) {
	t.Helper()
	w := c.cmd(name, env, "worker", "--once")
	out, err := w.CombinedOutput()
	if err != nil {
		t.Fatalf("%s's worker: %v\n%s", name, err, out)
	}
	t.Logf("%s's worker:\n%s", name, out)
	got := bhTask(t, c.dir(name), id)
	if got.State != task.Closed {
		t.Fatalf("in %s the task is %s after its worker", name, got.State)
	}
	for _, e := range got.History {
		if e.Kind == task.EventSessionLost {
			t.Errorf("the session was lost: %s", e.Text)
		}
	}
	if got, err := c.gitRemote(t, "show", "main:wip.txt"); err != nil || got != "half\n" {
		t.Errorf("the parked wip.txt did not land on the remote: %q, %v", got, err)
	}
}

// gitRemote runs git in the bare remote and returns its output.
func (c *twoClones) gitRemote(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"--git-dir", c.remote}, args...)...)
	cmd.Env = append(os.Environ(), c.env...)
	out, err := cmd.Output()
	return string(out), err
}
