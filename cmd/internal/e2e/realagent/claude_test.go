package realagent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/cmd/internal/e2e"
	"github.com/bh-tracker/bh/task"
)

// TestWorkerWithRealClaude runs bh with the real Claude Code
// CLI against a fake Messages API scripted per task: one task completes,
// one fails, one asks, is answered with bh respond, and resumes the same
// claude session with the earlier turns and the answer.
func TestWorkerWithRealClaude(t *testing.T) {
	const (
		titleA = "Write file a"
		titleB = "Try file b"
		titleC = "Draft file c"
		answer = "use option 2"
	)
	// Each task's title is in its prompt; the files the conversation wrote
	// already say how far its run got.
	script := func(req *fakeapi.Request) fakeapi.Turn {
		p := req.Prompt()
		switch {
		case strings.Contains(p, titleA) && !e2e.Wrote(req, "a.txt"):
			return fakeapi.Reply(fakeapi.Text("Writing a."), fakeapi.Write("a.txt", "a\n"))
		case strings.Contains(p, titleA):
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "wrote a.txt"}))
		case strings.Contains(p, titleB) && !e2e.Wrote(req, "b.txt"):
			return fakeapi.Reply(fakeapi.Write("b.txt", "b\n"))
		case strings.Contains(p, titleB):
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "failed", "summary": "b cannot work"}))
		case strings.Contains(p, titleC) && strings.Contains(p, answer) && !e2e.Wrote(req, "c2.txt"):
			return fakeapi.Reply(fakeapi.Write("c2.txt", "c2 with option 2\n"))
		case strings.Contains(p, titleC) && strings.Contains(p, answer):
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "wrote c1.txt and c2.txt"}))
		case strings.Contains(p, titleC) && !e2e.Wrote(req, "c1.txt"):
			return fakeapi.Reply(fakeapi.Write("c1.txt", "c1 draft\n"))
		case strings.Contains(p, titleC):
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "needs_input",
				"summary": "drafted c1.txt", "question": "Option 1 or option 2?"}))
		}
		t.Errorf("unexpected request #%d, prompt %q", req.N, p)
		return fakeapi.Fail(400, "invalid_request_error", "unexpected prompt")
	}
	srv := fakeapi.New(t, script)
	claude := fakeapi.Claude(t)
	// The worker's agent inherits bh's environment, as from a user's shell.
	env := fakeapi.Env(t, srv)
	home := ""
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
		if k == "HOME" {
			home = v
		}
	}

	dir := t.TempDir()
	e2e.Git(t, dir, "init", "-q", "-b", "main")
	e2e.Git(t, dir, "config", "user.name", "bh test")
	e2e.Git(t, dir, "config", "user.email", "bh@example.com")
	bhE2E(t, dir, "init")
	cfg := "prefix: tm\nagent:\n  kind: claude\n  binary: " + claude + "\n  timeout: " + e2e.RealTimeout + "\n"
	e2e.Write(t, dir, ".bh/config.yaml", cfg)
	e2e.Write(t, dir, "README.md", "# project\n")
	e2e.Git(t, dir, "add", "-A")
	e2e.Git(t, dir, "commit", "-q", "-m", "init")

	// C first, so that its parked work must stay out of A's commit.
	c := strings.TrimSpace(bhE2E(t, dir, "add", titleC, "--priority", "0"))
	a := strings.TrimSpace(bhE2E(t, dir, "add", titleA, "--priority", "1"))
	b := strings.TrimSpace(bhE2E(t, dir, "add", titleB, "--priority", "2"))
	e2e.Write(t, dir, "notes.txt", "the user's notes\n")

	start := time.Now()
	out := bhE2E(t, dir, "worker", "--once", "--json")
	t.Logf("first worker run (3 tasks, 3 claude runs): %s", time.Since(start).Round(time.Millisecond))
	outcomes := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e struct{ Kind, TaskID, Outcome string } // bh worker --json's names (JSON.md)
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("worker --json line %q: %v", line, err)
		}
		if e.Kind == "finished" {
			outcomes[e.TaskID] = e.Outcome
		}
	}
	if outcomes[a] != "completed" || outcomes[b] != "failed" || outcomes[c] != "needs_input" {
		t.Fatalf("outcomes = %v, want A completed, B failed, C needs_input\n%s", outcomes, out)
	}

	// A: one commit with a.txt and its task file, and nothing else.
	commitA := e2e.Git(t, dir, "log", "--format=%H", "--grep", "bh-task: "+a)
	if got := sortedLines(e2e.Git(t, dir, "show", "--name-only", "--format=", commitA)); !slices.Equal(got, []string{".bh/tasks/" + a + ".yaml", "a.txt"}) {
		t.Errorf("A's commit holds %q, want a.txt and its task file", got)
	}
	if got := e2e.Git(t, dir, "show", commitA+":a.txt"); got != "a" {
		t.Errorf("a.txt in A's commit = %q", got)
	}
	// Its conversation reads back from the run log.
	if tr := bhE2E(t, dir, "transcript", a); !strings.Contains(tr, "→ Write a.txt") || !strings.Contains(tr, "result:") {
		t.Errorf("bh transcript %s:\n%s", a, tr)
	}
	// B: discarded; the user's untracked notes untouched.
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); !os.IsNotExist(err) {
		t.Errorf("b.txt after B failed: %v, want it nowhere", err)
	}
	if got := e2e.Read(t, dir, "notes.txt"); got != "the user's notes\n" {
		t.Errorf("notes.txt = %q", got)
	}
	// C: parked in its worktree, out of the user's tree and out of every commit.
	if _, err := os.Stat(filepath.Join(dir, "c1.txt")); !os.IsNotExist(err) {
		t.Errorf("c1.txt after C asked: %v, want it out of the user's tree", err)
	}
	if tree := e2e.Git(t, dir, "ls-tree", "-r", "--name-only", "HEAD"); strings.Contains(tree, "c1.txt") || strings.Contains(tree, "b.txt") {
		t.Errorf("HEAD's tree holds C's or B's work:\n%s", tree)
	}
	if parked := e2e.Git(t, dir, "ls-tree", "-r", "--name-only", "refs/bh/parked/"+c); !strings.Contains(parked, "c1.txt") {
		t.Errorf("refs/bh/parked/%s holds %q, want c1.txt", c, parked)
	}
	asked := bhE2E.Task(t, dir, c)
	if asked.State != task.AwaitingInput || asked.Question != "Option 1 or option 2?" || asked.SessionID == "" {
		t.Fatalf("C is %s asking %q in session %q", asked.State, asked.Question, asked.SessionID)
	}
	firstC := e2e.RequestsFor(srv, titleC)
	if len(firstC) != 2 {
		t.Fatalf("C's first run made %d requests, want 2", len(firstC))
	}

	// C's work waits in its worktree, which is then removed (as a user's
	// cleanup might): the resume recreates it at the same path, where claude
	// files C's session, from the parked snapshot.
	wtPath, path := "", "" // the worktree on C's branch (a pool slot: not named for C)
	for _, l := range strings.Split(e2e.Git(t, dir, "worktree", "list", "--porcelain"), "\n") {
		if p, ok := strings.CutPrefix(l, "worktree "); ok {
			path = p
		} else if l == "branch refs/heads/bh/"+c {
			wtPath = path
		}
	}
	if wtPath == "" || e2e.Read(t, wtPath, "c1.txt") != "c1 draft\n" {
		t.Fatalf("C's worktree %q does not hold its partial work", wtPath)
	}
	if err := os.RemoveAll(wtPath); err != nil {
		t.Fatal(err)
	}

	bhE2E(t, dir, "respond", c, answer)
	start = time.Now()
	bhE2E(t, dir, "worker", "--once")
	t.Logf("second worker run (C resumed): %s", time.Since(start).Round(time.Millisecond))

	// The resumed request carries the first prompt, the Write of c1.txt and
	// the answer, in the session C started.
	allC := e2e.RequestsFor(srv, titleC)
	if len(allC) != len(firstC)+2 {
		t.Fatalf("C's resumed run made %d requests, want 2", len(allC)-len(firstC))
	}
	resumed := allC[len(firstC)]
	texts := resumed.UserTexts()
	if !slices.Contains(texts, firstC[0].Prompt()) || !strings.Contains(resumed.Prompt(), answer) {
		t.Errorf("resumed request's user texts = %q, want C's first prompt, then the answer", texts)
	}
	if !e2e.Wrote(resumed, "c1.txt") {
		t.Errorf("resumed request's tool calls = %+v, want the earlier Write of c1.txt", resumed.ToolUses())
	}
	ct := bhE2E.Task(t, dir, c)
	if e, ok := lastHistory(ct, task.EventUnparked); !ok || !strings.Contains(e.Text, "worktree recreated at "+wtPath) {
		t.Errorf("C's history does not record its worktree recreated at %s: %+v", wtPath, e)
	}
	if ct.SessionID != asked.SessionID {
		t.Errorf("C's session went from %s to %s: the resume did not keep it", asked.SessionID, ct.SessionID)
	}
	// Sessions live in each task's own agent state (under XDG_STATE_HOME,
	// in home), none in the user's ~/.claude; a task's agent state goes
	// when it closes (A and C), so B's alone is left. bh's own copy of
	// C's session, in .bh/runs, holds the first run and the answer: the
	// resume wrote on in C's own session.
	if mine, _ := filepath.Glob(filepath.Join(home, ".claude", "projects", "*", "*.jsonl")); len(mine) != 0 {
		t.Errorf("runs wrote sessions into the user's ~/.claude: %q", mine)
	}
	sessions, _ := filepath.Glob(filepath.Join(home, ".local", "state", "bh", "agents", "*", "*", "claude", "projects", "*", "*.jsonl"))
	if len(sessions) != 1 {
		t.Errorf("claude keeps %d sessions in agent state, want 1 (B's; A and C closed): %q", len(sessions), sessions)
	}
	cSession, _ := os.ReadFile(filepath.Join(dir, ".git", "bh", "runs", c, "sessions", ct.SessionID+".jsonl"))
	if !strings.Contains(string(cSession), "c1 draft") || !strings.Contains(string(cSession), answer) {
		t.Errorf("bh's copy of C's session %s.jsonl lacks the first run or the answer", ct.SessionID)
	}

	// One commit: c1.txt, c2.txt and C's task file.
	if ct.State != task.Closed {
		t.Fatalf("C is %s after the resume: %s", ct.State, ct.Summary)
	}
	commitC := e2e.Git(t, dir, "log", "--format=%H", "--grep", "bh-task: "+c)
	if got := sortedLines(e2e.Git(t, dir, "show", "--name-only", "--format=", commitC)); !slices.Equal(got, []string{".bh/tasks/" + c + ".yaml", "c1.txt", "c2.txt"}) {
		t.Errorf("C's commit holds %q, want c1.txt, c2.txt and its task file", got)
	}
	if head := e2e.Git(t, dir, "rev-parse", "HEAD"); head != commitC || e2e.Git(t, dir, "rev-parse", "HEAD~1") != commitA {
		t.Errorf("history is not init, A, C:\n%s", e2e.Git(t, dir, "log", "--oneline"))
	}
	if st := e2e.Git(t, dir, "status", "--porcelain"); !strings.Contains(st, "?? notes.txt") || strings.Contains(st, "c1.txt") {
		t.Errorf("git status after C:\n%s", st)
	}
}

func lastHistory(t *task.Task, kind string) (task.Event, bool) {
	for i := len(t.History) - 1; i >= 0; i-- {
		if t.History[i].Kind == kind {
			return t.History[i], true
		}
	}
	return task.Event{}, false
}
