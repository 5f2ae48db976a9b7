package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
)

// planEditor is an $EDITOR that edits the plan bh respond --edit opens:
// step two becomes the human's own.
const planEditor = "#!/bin/sh\nsed -i 's/2. Add the flag\\./2. Add the flag, named --shout (edited)./' \"$1\"\n"

// planAsks is the planning run's result that asks two questions.
var planAsks = map[string]any{"status": "needs_input", "summary": "two questions", "questions": []any{
	map[string]any{"question": "Which name?", "type": "choice", "options": []any{
		map[string]any{"label": "shout"}, map[string]any{"label": "loud"}}},
	map[string]any{"question": "What should it print?", "type": "freeform"}}}

// planRepo is a repository holding notes.txt, with config's agent (and
// its environment, env, set for the test), its editor planEditor, and a
// task added with add's arguments; it returns its dir and the task's id.
func planRepo(t *testing.T, env []string, config string, add ...string) (dir, id string) {
	t.Helper()
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", planEditorFile(t))
	dir = t.TempDir()
	writeE2E(t, dir, "notes.txt", "NOTES-SAY-SHOUT\n")
	repoE2E(t, dir, "prefix: tm\n"+config+"  timeout: "+realTimeout+"\n")
	return dir, strings.TrimSpace(bhE2E(t, dir, append([]string{"add"}, add...)...))
}

// implemented runs the worker on task id, whose plan is approved, and
// checks that its work landed, and none of its planning run's.
func implemented(t *testing.T, dir, id string) *task.Task {
	t.Helper()
	bhE2E(t, dir, "worker", "--once")
	tk := bhTask(t, dir, id)
	if tk.State != task.Closed {
		t.Fatalf("after the implementing run: %s (%s)", tk.State, tk.Summary)
	}
	if got := readE2E(t, dir, "shout.txt"); got != "shout\n" {
		t.Errorf("landed shout.txt = %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "early.txt")); err == nil {
		t.Errorf("the planning run's write landed")
	}
	return tk
}

// planEditorFile is planEditor, written as a program.
func planEditorFile(t *testing.T) string {
	t.Helper()
	editor := filepath.Join(t.TempDir(), "editor")
	if err := os.WriteFile(editor, []byte(planEditor), 0o755); err != nil {
		t.Fatal(err)
	}
	return editor
}

// A plan: true task with the real Claude Code: its planning run, in plan
// mode, reads a file, tries to write one (plan mode refuses it) and asks
// two questions; answered, the same session ends with a plan; the plan,
// edited in the editor, is approved; the implementing run resumes the
// same session (its request carries the planning run's read) with the
// edited plan in its prompt, and its work lands. No file of the worktree
// changed while it planned.
func TestPlanClaude(t *testing.T) {
	const title = "Plan the shout flag"
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		prompt := req.Prompt()
		switch {
		case strings.Contains(prompt, "Your plan is approved"):
			if len(req.ToolResults()) == 0 {
				return fakeapi.Reply(fakeapi.Write("shout.txt", "shout\n"))
			}
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "added the flag"}))
		case strings.Contains(prompt, "Human Response to Your Question"):
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "a plan",
				"details": "1. Read notes.txt.\n2. Add the flag.\n3. Test it."}))
		case strings.Contains(prompt, "This is a planning run") && len(req.ToolResults()) == 0:
			return fakeapi.Reply(fakeapi.ToolUse("Read", map[string]any{"file_path": "notes.txt"}),
				fakeapi.Write("early.txt", "too soon\n"))
		case strings.Contains(prompt, "This is a planning run"):
			return fakeapi.Reply(fakeapi.StructuredOutput(planAsks))
		}
		t.Errorf("unexpected request #%d, prompt %q", req.N, prompt)
		return fakeapi.Fail(400, "invalid_request_error", "unexpected prompt")
	})
	dir, id := planRepo(t, fakeapi.Env(t, srv), "agent:\n  kind: claude\n  binary: "+fakeapi.Claude(t)+"\n", title, "--plan")

	bhE2E(t, dir, "worker", "--once")
	tk := bhTask(t, dir, id)
	if tk.State != task.AwaitingInput || len(tk.OpenQuestions()) != 2 {
		t.Fatalf("after the planning run: %s, questions %+v", tk.State, tk.Questions)
	}
	for _, q := range tk.Questions {
		if !q.Planning {
			t.Errorf("question %q is not marked as asked in planning", q.Question)
		}
	}
	bhE2E(t, dir, "respond", id, "--choice", "shout")
	bhE2E(t, dir, "respond", id, "it prints LOUDLY")

	bhE2E(t, dir, "worker", "--once")
	tk = bhTask(t, dir, id)
	open := tk.OpenQuestions()
	if tk.State != task.AwaitingInput || len(open) != 1 || !strings.Contains(open[0].Plan, "2. Add the flag.") {
		t.Fatalf("after planning: %s, questions %+v", tk.State, open)
	}
	if show := bhE2E(t, dir, "show", id); !strings.Contains(show, "plan (waiting for approval)") {
		t.Errorf("bh show does not show the plan waiting:\n%s", show)
	}
	bhE2E(t, dir, "respond", id, "--edit")
	if show := bhE2E(t, dir, "show", id); !strings.Contains(show, "plan (approved as edited)") ||
		!strings.Contains(show, "named --shout (edited)") {
		t.Errorf("bh show does not show the edited plan:\n%s", show)
	}

	tk = implemented(t, dir, id)
	impl := requestsFor(srv, "Your plan is approved")
	if len(impl) == 0 {
		t.Fatal("no implementing request")
	}
	first := impl[0]
	if !strings.Contains(first.Prompt(), "2. Add the flag, named --shout (edited).") {
		t.Errorf("the implementing prompt lacks the edited plan:\n%s", first.Prompt())
	}
	if !strings.Contains(string(first.Body), "NOTES-SAY-SHOUT") || !strings.Contains(string(first.Body), "it prints LOUDLY") {
		t.Errorf("the implementing request does not carry the planning run's read and answers: not the same session")
	}
	sessions := map[string]bool{}
	for _, e := range tk.History {
		if e.Kind == task.EventRunStarted {
			sessions[e.Session] = true
		}
	}
	if len(sessions) != 1 {
		t.Errorf("runs in %d sessions, want 1: %v", len(sessions), sessions)
	}
	denied := false
	for _, req := range srv.Requests() {
		for _, r := range req.ToolResults() {
			denied = denied || r.IsError && strings.Contains(r.ResultText(), "planning run")
		}
		if strings.Contains(req.Prompt(), "planning run") && req.HasTool("ExitPlanMode") {
			t.Errorf("request #%d offers ExitPlanMode in a planning run", req.N)
		}
	}
	if !denied {
		t.Errorf("claude was never told that its write was refused in a planning run")
	}
}

// A yes to a plan takes no words beside it (a yes's comment on a plan is
// the plan as edited); the picker asks for none after a yes; --no TEXT
// sends it back with TEXT.
func TestRespondToPlan(t *testing.T) {
	s := newTestStore(t)
	tk := &task.Task{ID: "tm-pl12", Title: "Planned", Type: "code", Priority: "P2", State: task.AwaitingInput,
		Questions: []task.Question{{ID: "qp", Question: "Approve this plan?", Type: task.ApprovalQuestion,
			Plan: "1. do it", Status: task.QuestionPending}}}
	if err := s.Put(tk); err != nil {
		t.Fatal(err)
	}
	f := newFactory()
	var errOut *bytes.Buffer
	f.IO, _, _, errOut = testIO()
	f.WorkDir = func() (string, error) { return s.Root, nil }
	if code := run(f, []string{"respond", tk.ID, "--yes", "looks good"}); code == 0 ||
		!strings.Contains(errOut.String(), "a yes to a plan takes no words") {
		t.Errorf("--yes with words: exit %d\n%s", code, errOut)
	}
	if a, err := askOne(&scripted{answers: []any{true}}, tk.Questions[0], false); err != nil || a.Comment != "" {
		t.Errorf("the picker's yes to a plan: %+v, %v", a, err)
	}
	bhE2E(t, s.Root, "respond", tk.ID, "--no", "smaller steps")
	if q := bhTask(t, s.Root, tk.ID).Questions[0]; q.Answer[0] != "no" || q.Comment != "smaller steps" {
		t.Errorf("sent back: %+v", q)
	}
}
