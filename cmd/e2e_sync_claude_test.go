package cmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
)

// TestAnswerOverGitWithRealClaude: the real claude, in clone A, asks; the
// question reaches clone B through the shared remote, is answered there
// with bh respond and bh sync, and A's worker, after its own sync, resumes
// the same session with the earlier turns and the answer. B never runs
// the agent.
func TestAnswerOverGitWithRealClaude(t *testing.T) {
	const (
		title  = "Draft the port config"
		answer = "use port 8080"
	)
	script := func(req *fakeapi.Request) fakeapi.Turn {
		p := req.Prompt()
		switch {
		case strings.Contains(p, answer) && !wrote(req, "port.txt"):
			return fakeapi.Reply(fakeapi.Write("port.txt", "8080\n"))
		case strings.Contains(p, answer):
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "wrote draft.txt and port.txt"}))
		case !wrote(req, "draft.txt"):
			return fakeapi.Reply(fakeapi.Write("draft.txt", "listen: ?\n"))
		}
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "needs_input",
			"summary": "drafted draft.txt", "question": "Which port?"}))
	}
	srv := fakeapi.New(t, script)
	claude := fakeapi.Claude(t)
	for _, kv := range fakeapi.Env(t, srv) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}

	root := t.TempDir()
	remote, a, b := filepath.Join(root, "remote.git"), filepath.Join(root, "a"), filepath.Join(root, "b")
	gitE2E(t, root, "init", "-q", "--bare", "-b", "main", remote)
	repoE2E(t, a, "agent:\n  kind: claude\n  binary: "+claude+"\n  timeout: 2m\nremote: origin\nautoSync: 1h\n")
	gitE2E(t, a, "remote", "add", "origin", remote)
	id := strings.TrimSpace(bhE2E(t, a, "add", title))
	bhE2E(t, a, "sync")
	gitE2E(t, root, "clone", "-q", remote, b)
	gitE2E(t, b, "config", "user.name", "bh b")
	gitE2E(t, b, "config", "user.email", "b@example.com")

	// A asks; its worker syncs on the way out, so the question is shared.
	bhE2E(t, a, "worker", "--once")
	first := srv.Requests()
	if len(first) != 2 {
		t.Fatalf("A's first run made %d requests, want 2", len(first))
	}
	bhE2E(t, b, "sync")
	if got := bhTask(t, b, id); got.State != task.AwaitingInput || got.Question != "Which port?" {
		t.Fatalf("in B, %s is %s asking %q", id, got.State, got.Question)
	}
	if inbox := bhE2E(t, b, "list", "--awaiting"); !strings.Contains(inbox, id) {
		t.Fatalf("bh list --awaiting in B:\n%s", inbox)
	}
	bhE2E(t, b, "respond", id, answer)
	bhE2E(t, b, "sync")
	if n := len(srv.Requests()); n != 2 {
		t.Fatalf("%d requests after B answered: B must not run the agent", n)
	}

	// A's worker syncs first, finds the answer, resumes the same session.
	bhE2E(t, a, "worker", "--once")
	all := srv.Requests()
	if len(all) != 4 {
		t.Fatalf("A's resumed run made %d requests, want 2", len(all)-2)
	}
	resumed := all[2]
	if !slices.Contains(resumed.UserTexts(), first[0].Prompt()) || !strings.Contains(resumed.Prompt(), answer) {
		t.Errorf("resumed request's user texts = %q, want A's first prompt, then the answer", resumed.UserTexts())
	}
	if !wrote(resumed, "draft.txt") {
		t.Errorf("resumed request's tool calls = %+v, want the earlier Write of draft.txt", resumed.ToolUses())
	}
	done := bhTask(t, a, id)
	if done.State != task.Closed {
		t.Fatalf("%s is %s after the resume: %s", id, done.State, done.Summary)
	}
	if done.SessionID != bhTask(t, b, id).SessionID {
		t.Errorf("the session changed from %s to %s", bhTask(t, b, id).SessionID, done.SessionID)
	}

	// The landed work reached the remote, and B gets it on its next sync.
	bhE2E(t, b, "sync")
	for _, f := range []string{"draft.txt", "port.txt"} {
		if _, err := os.Stat(filepath.Join(b, f)); err != nil {
			t.Errorf("B after sync: %v", err)
		}
	}
	if got := gitE2E(t, remote, "log", "--format=%B", "main"); !strings.Contains(got, "bh-task: "+id) {
		t.Errorf("the remote's main does not hold %s's commit:\n%s", id, got)
	}
}
