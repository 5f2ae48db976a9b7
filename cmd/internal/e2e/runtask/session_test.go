package runtask

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/cmd/internal/e2e"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker"
)

// TestRunTaskAskParksAndResumes: the real Claude Code CLI in a pod asks
// a question; bh run-task parks the task and pushes its park and session
// before it releases the claim, and the worker deletes the SandboxClaim
// (the question holds no pod). The answer is given in another clone and
// pushed; a new pod, a fresh clone with a home of its own, resumes the
// same session, with the first pod's work, and lands it.
func TestRunTaskAskParksAndResumes(t *testing.T) { testAskParks(t, newCluster) }

// TestK8sAskParksAndResumes is TestRunTaskAskParksAndResumes against a
// real API server: the question holds no pod (its claim is deleted).
func TestK8sAskParksAndResumes(t *testing.T) { testAskParks(t, newK8sCluster) }

func testAskParks(t *testing.T, newCluster newFunc) {
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		switch p := req.Prompt(); {
		case strings.Contains(p, "Answer: blue") && len(req.ToolResults()) == 0:
			return fakeapi.Reply(fakeapi.Write("color.txt", "blue\n"))
		case strings.Contains(p, "Answer: blue"):
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "painted it blue"}))
		case len(req.ToolResults()) == 0:
			return fakeapi.Reply(fakeapi.Write("draft.txt", "draft\n"))
		}
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "needs_input", "summary": "drafted", "question": "Which color?"}))
	})
	config := "agent:\n  kind: claude\n  binary: " + fakeapi.Claude(t) + "\n  timeout: " + e2e.RealTimeout + "\nremote: origin\nlease: 1m\n"
	cl, ids := newCluster(t, config, "Paint the shed")
	id := ids[0]

	p1 := cl.handOut(t)
	cl.run(t, p1, fakeapi.Env(t, srv)...)
	if err := <-p1.done; err != nil {
		t.Fatalf("the worker's run: %v", err)
	}
	if !cl.claimGone(t, p1) {
		t.Fatal("the parked task's SandboxClaim is still there")
	}
	asked := cl.remoteTask(t, id)
	if asked.State != task.AwaitingInput || asked.SessionID == "" {
		t.Fatalf("on the remote after the first pod: %s, session %q", asked.State, asked.SessionID)
	}
	for _, ref := range []string{"refs/bh/parked/" + id, "refs/bh/sessions/" + id} {
		e2e.Git(t, cl.root, "--git-dir", cl.remote, "rev-parse", "--verify", ref)
	}
	if out := e2e.Git(t, cl.root, "--git-dir", cl.remote, "show", "refs/bh/claims/"+id+":claim.json"); !strings.Contains(out, `"state": "released"`) {
		t.Fatalf("the claim after the park:\n%s", out)
	}

	e2e.Git(t, cl.root, "clone", "-q", cl.remote, "human")
	human := filepath.Join(cl.root, "human")
	e2e.Process(t, human, "respond", id, "blue")
	e2e.Process(t, human, "sync")
	if _, err := worker.Sync(cl.s, "", true); err != nil { // the worker's autoSync
		t.Fatal(err)
	}

	p2 := cl.handOut(t)
	cl.run(t, p2, fakeapi.Env(t, srv)...)
	if err := <-p2.done; err != nil {
		t.Fatalf("the worker's second run: %v", err)
	}
	got := cl.remoteTask(t, id)
	if got.State != task.Closed || got.SessionID != asked.SessionID {
		t.Fatalf("after the answer: %s, session %s (asked in %s)", got.State, got.SessionID, asked.SessionID)
	}
	resumed := e2e.RequestsFor(srv, "Answer: blue")
	if len(resumed) == 0 || !e2e.Wrote(resumed[0], "draft.txt") {
		t.Fatalf("the second pod's claude did not resume the first pod's session (%d requests)", len(resumed))
	}
	if n := cl.landed(t, id); n != 1 {
		t.Fatalf("landed %d times", n)
	}
	files := e2e.Git(t, cl.root, "--git-dir", cl.remote, "show", "--name-only", "--format=", "main")
	for _, f := range []string{"draft.txt", "color.txt"} {
		if !strings.Contains(files, f) {
			t.Errorf("the landed commit lacks %s: %s", f, files)
		}
	}
}
