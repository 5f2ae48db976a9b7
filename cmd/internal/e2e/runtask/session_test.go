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
// a question; the worker parks the task and deletes the SandboxClaim (the
// question holds no pod). The answer is given in another clone and
// pushed; the worker runs the task again in a new pod, with a home of its
// own, which resumes the same session (its transcript came back with the
// first pod's result and goes with the second's input), with the first
// pod's work, and lands it.
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

	done := cl.work(t)
	p1 := cl.next(t, id, done)
	cl.run(t, p1, fakeapi.Env(t, srv)...)
	if err := <-done; err != nil {
		t.Fatalf("the worker's run: %v", err)
	}
	if !cl.claimGone(t, p1) {
		t.Fatal("the parked task's SandboxClaim is still there")
	}
	if _, err := worker.Sync(cl.s, "", true); err != nil {
		t.Fatal(err)
	}
	asked := cl.remoteTask(t, id)
	if asked.State != task.AwaitingInput || asked.SessionID == "" {
		t.Fatalf("on the remote after the first pod: %s, session %q", asked.State, asked.SessionID)
	}

	e2e.Git(t, cl.root, "clone", "-q", cl.remote, "human")
	human := filepath.Join(cl.root, "human")
	e2e.Process(t, human, "respond", id, "blue")
	e2e.Process(t, human, "sync")
	if _, err := worker.Sync(cl.s, "", true); err != nil { // the worker's autoSync
		t.Fatal(err)
	}

	done = cl.work(t)
	p2 := cl.next(t, id, done)
	cl.run(t, p2, fakeapi.Env(t, srv)...)
	if err := <-done; err != nil {
		t.Fatalf("the worker's second run: %v", err)
	}
	if _, err := worker.Sync(cl.s, "", true); err != nil {
		t.Fatal(err)
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

// TestRunTaskAskUserQuestionParks: the real Claude Code CLI in a pod
// asks through bh's MCP server (AskUserQuestion, which bh mcp in the
// agent's container takes as its permission-prompt tool); the question
// comes back in the pod's result, not pushed anywhere else, and the
// worker parks the task with it, whatever the agent answered after, as
// for a local run.
func TestRunTaskAskUserQuestionParks(t *testing.T) { testAskUserQuestion(t, newCluster) }

// TestK8sAskUserQuestionParks is TestRunTaskAskUserQuestionParks against
// a real API server.
func TestK8sAskUserQuestionParks(t *testing.T) { testAskUserQuestion(t, newK8sCluster) }

func testAskUserQuestion(t *testing.T, newCluster newFunc) {
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		if len(req.ToolResults()) == 0 {
			return fakeapi.Reply(fakeapi.ToolUse("AskUserQuestion", map[string]any{"questions": []any{map[string]any{
				"question": "Which database?", "header": "Database", "multiSelect": false,
				"options": []any{map[string]any{"label": "Postgres", "description": "the usual"},
					map[string]any{"label": "SQLite", "description": "one file"}}}}}))
		}
		// The model ignores the deny and says it is done: bh must not believe it.
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "guessed"}))
	})
	config := "agent:\n  kind: claude\n  binary: " + fakeapi.Claude(t) + "\n  timeout: " + e2e.RealTimeout + "\nremote: origin\nlease: 1m\n"
	cl, ids := newCluster(t, config, "Pick a database")
	id := ids[0]
	done := cl.work(t)
	p := cl.next(t, id, done)
	cl.run(t, p, fakeapi.Env(t, srv)...)
	if err := <-done; err != nil {
		t.Fatalf("the worker's run: %v", err)
	}
	if _, err := worker.Sync(cl.s, "", true); err != nil {
		t.Fatal(err)
	}
	got := cl.remoteTask(t, id)
	if got.State != task.AwaitingInput {
		t.Fatalf("after AskUserQuestion in a pod: %s (%s)", got.State, got.Summary)
	}
	var q *task.Question
	for i := range got.Questions {
		if got.Questions[i].Status != task.QuestionAnswered {
			q = &got.Questions[i]
		}
	}
	if q == nil || q.Question != "Which database?" || len(q.Options) != 2 || q.Options[1].Label != "SQLite" {
		t.Fatalf("the parked task's questions: %+v", got.Questions)
	}
	if !cl.claimGone(t, p) {
		t.Fatal("the parked task's SandboxClaim is still there")
	}
}
