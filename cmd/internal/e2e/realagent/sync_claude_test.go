package realagent

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/cmd/internal/e2e"
	"github.com/bh-tracker/bh/task"
)

// TestAnswerOverGitWithRealClaude: the real claude, in clone A, asks; the
// question reaches clone B through the shared remote, is answered there
// with bh respond and bh sync, and A's worker, after its own sync, resumes
// the same session with the earlier turns and the answer. B never runs
// the agent.
func TestAnswerOverGitWithRealClaude(t *testing.T) {
	srv, remote, a, b, id := askedInCloneA(t)
	first := srv.Requests()
	bhE2E(t, b, "sync")
	if got := bhE2E.Task(t, b, id); got.State != task.AwaitingInput || got.Question != "Which port?" {
		t.Fatalf("in B, %s is %s asking %q", id, got.State, got.Question)
	}
	if inbox := bhE2E(t, b, "list", "--awaiting"); !strings.Contains(inbox, id) {
		t.Fatalf("bh list --awaiting in B:\n%s", inbox)
	}
	bhE2E(t, b, "respond", id, portAnswer)
	bhE2E(t, b, "sync")
	if n := len(srv.Requests()); n != 2 {
		t.Fatalf("%d requests after B answered: B must not run the agent", n)
	}

	// A's worker syncs first, finds the answer, resumes the same session.
	bhE2E(t, a, "worker", "--once")
	checkResumed(t, srv, first)
	done := bhE2E.Task(t, a, id)
	if done.State != task.Closed {
		t.Fatalf("%s is %s after the resume: %s", id, done.State, done.Summary)
	}

	// The landed work reached the remote, and B gets it on its next sync.
	bhE2E(t, b, "sync")
	for _, f := range []string{"draft.txt", "port.txt"} {
		if _, err := os.Stat(filepath.Join(b, f)); err != nil {
			t.Errorf("B after sync: %v", err)
		}
	}
	if got := e2e.Git(t, remote, "log", "--format=%B", "main"); !strings.Contains(got, "bh-task: "+id) {
		t.Errorf("the remote's main does not hold %s's commit:\n%s", id, got)
	}
}

// TestSessionTravelsWithRealClaude: asked in clone A, answered and resumed
// in clone B, under another HOME: B's claude has no session of its own, so
// B fetches the parked work and the session copy A pushed, recreates the
// worktree at its own path, puts the session file where claude looks, and
// resumes the same session.
func TestSessionTravelsWithRealClaude(t *testing.T) {
	srv, remote, _, b, id := askedInCloneA(t)
	first := srv.Requests()
	for _, kv := range fakeapi.Env(t, srv) { // machine B: a HOME of its own
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	bhE2E(t, b, "sync")
	bhE2E(t, b, "respond", id, portAnswer)
	bhE2E(t, b, "worker", "--once")
	checkResumed(t, srv, first)
	done := bhE2E.Task(t, b, id)
	if done.State != task.Closed {
		t.Fatalf("%s is %s after B resumed it: %s", id, done.State, done.Summary)
	}
	if e, ok := lastHistory(done, task.EventSessionLost); ok {
		t.Errorf("the session was lost in B: %+v", e)
	}
	commit := e2e.Git(t, remote, "log", "--format=%H", "--grep", "bh-task: "+id, "main")
	if got := sortedLines(e2e.Git(t, b, "show", "--name-only", "--format=", commit)); !slices.Equal(got, []string{".bh/tasks/" + id + ".yaml", "draft.txt", "port.txt"}) {
		t.Errorf("the commit B landed holds %q, want A's draft.txt, B's port.txt and the task file", got)
	}
}

const portAnswer = "use port 8080"

// askedInCloneA makes a bare remote and clones A and B of it, with a task
// that the real claude, in A, asks about; A's worker syncs the question.
func askedInCloneA(t *testing.T) (srv *fakeapi.Server, remote, a, b, id string) {
	const answer = portAnswer
	script := func(req *fakeapi.Request) fakeapi.Turn {
		p := req.Prompt()
		switch {
		case strings.Contains(p, answer) && !e2e.Wrote(req, "port.txt"):
			return fakeapi.Reply(fakeapi.Write("port.txt", "8080\n"))
		case strings.Contains(p, answer):
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "wrote draft.txt and port.txt"}))
		case !e2e.Wrote(req, "draft.txt"):
			return fakeapi.Reply(fakeapi.Write("draft.txt", "listen: ?\n"))
		}
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "needs_input",
			"summary": "drafted draft.txt", "question": "Which port?"}))
	}
	srv = fakeapi.New(t, script)
	claude := fakeapi.Claude(t)
	for _, kv := range fakeapi.Env(t, srv) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	root := t.TempDir()
	remote, a, b = filepath.Join(root, "remote.git"), filepath.Join(root, "a"), filepath.Join(root, "b")
	e2e.Git(t, root, "init", "-q", "--bare", "-b", "main", remote)
	bhE2E.Repo(t, a, "agent:\n  kind: claude\n  binary: "+claude+"\n  timeout: "+e2e.RealTimeout+"\nremote: origin\nautoSync: 1h\n")
	e2e.Git(t, a, "remote", "add", "origin", remote)
	id = strings.TrimSpace(bhE2E(t, a, "add", "Draft the port config"))
	bhE2E(t, a, "sync")
	e2e.Git(t, root, "clone", "-q", remote, b)
	e2e.Git(t, b, "config", "user.name", "bh b")
	e2e.Git(t, b, "config", "user.email", "b@example.com")

	// A asks; its worker syncs on the way out, so the question is shared.
	bhE2E(t, a, "worker", "--once")
	if n := len(srv.Requests()); n != 2 {
		t.Fatalf("A's first run made %d requests, want 2", n)
	}
	return srv, remote, a, b, id
}

// checkResumed: the run after first resumed its session, with the earlier
// turns and the answer.
func checkResumed(t *testing.T, srv *fakeapi.Server, first []*fakeapi.Request) {
	t.Helper()
	all := srv.Requests()
	if len(all) != 4 {
		t.Fatalf("the resumed run made %d requests, want 2", len(all)-2)
	}
	resumed := all[2]
	if !slices.Contains(resumed.UserTexts(), first[0].Prompt()) || !strings.Contains(resumed.Prompt(), portAnswer) {
		t.Errorf("resumed request's user texts = %q, want A's first prompt, then the answer", resumed.UserTexts())
	}
	if !e2e.Wrote(resumed, "draft.txt") {
		t.Errorf("resumed request's tool calls = %+v, want the earlier Write of draft.txt", resumed.ToolUses())
	}
}
