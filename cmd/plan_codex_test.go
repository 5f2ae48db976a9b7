package cmd

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
)

// A plan: true task with the real Codex CLI, as TestPlanClaude: its
// planning run, in codex's read-only sandbox, reads a file, fails to
// write one and asks two questions; answered, the same thread ends with
// a plan; approved as edited, the same thread carries it out (its request
// carries the planning run's command and output) with the edited plan in
// its prompt. No file of the worktree changed while it planned.
func TestPlanCodex(t *testing.T) {
	const title = "Plan the shout flag"
	srv := fakeapi.NewResponses(t, func(req *fakeapi.ResponsesRequest) fakeapi.Turn {
		p, outs := req.Prompt(), len(req.Outputs())
		switch {
		case strings.Contains(p, "Your plan is approved") && !strings.Contains(lastOutput(req), "shout.txt"):
			return fakeapi.Reply(fakeapi.Exec("printf 'shout\\n' > shout.txt && echo wrote shout.txt"))
		case strings.Contains(p, "Your plan is approved"):
			return fakeapi.Reply(fakeapi.Final(map[string]any{"status": "completed", "summary": "added the flag"}))
		case strings.Contains(p, "Human Response to Your Question"):
			return fakeapi.Reply(fakeapi.Final(map[string]any{"status": "completed", "summary": "a plan",
				"details": "1. Read notes.txt.\n2. Add the flag.\n3. Test it."}))
		case strings.Contains(p, "This is a planning run") && outs == 0:
			return fakeapi.Reply(fakeapi.Exec("cat notes.txt; printf 'too soon\\n' > early.txt"))
		case strings.Contains(p, "This is a planning run"):
			return fakeapi.Reply(fakeapi.Final(planAsks))
		}
		t.Errorf("unexpected request #%d, prompt %q", req.N, p)
		return fakeapi.Fail(400, "invalid_request_error", "unexpected prompt")
	})
	// plan: true in the config: the task plans by its default
	dir, id := planRepo(t, fakeapi.CodexEnv(t, srv), "plan: true\nagent:\n  kind: codex\n  binary: "+fakeapi.Codex(t)+"\n", title)

	bhE2E(t, dir, "worker", "--once")
	tk := bhTask(t, dir, id)
	if tk.State != task.AwaitingInput || len(tk.OpenQuestions()) != 2 {
		t.Fatalf("after the planning run: %s (%s), questions %+v", tk.State, tk.Summary, tk.Questions)
	}
	planned := srv.Requests()[1]
	if out := lastOutput(planned); !strings.Contains(out, "NOTES-SAY-SHOUT") || !strings.Contains(out, "Read-only file system") {
		t.Errorf("the planning run's command output = %q, want notes.txt read and the write refused by codex's sandbox", out)
	}
	bhE2E(t, dir, "respond", id, "--choice", "shout")
	bhE2E(t, dir, "respond", id, "it prints LOUDLY")
	bhE2E(t, dir, "worker", "--once")
	if open := bhTask(t, dir, id).OpenQuestions(); len(open) != 1 || open[0].Plan == "" {
		t.Fatalf("after planning: questions %+v", open)
	}
	bhE2E(t, dir, "respond", id, "--edit")
	tk = implemented(t, dir, id)
	var impl *fakeapi.ResponsesRequest
	for _, req := range srv.Requests() {
		if impl == nil && strings.Contains(req.Prompt(), "Your plan is approved") {
			impl = req
		}
	}
	if impl == nil {
		t.Fatal("no implementing request")
	}
	if !strings.Contains(impl.Prompt(), "2. Add the flag, named --shout (edited).") {
		t.Errorf("the implementing prompt lacks the edited plan:\n%s", impl.Prompt())
	}
	if !strings.Contains(string(impl.Body), "NOTES-SAY-SHOUT") || !strings.Contains(string(impl.Body), "it prints LOUDLY") {
		t.Errorf("the implementing request does not carry the planning run's read and answers: not the same thread")
	}
	for _, e := range tk.History {
		if e.Kind == task.EventRunStarted && e.Session != "" && e.Session != tk.SessionID { // codex names its thread in its first run
			t.Errorf("a run in thread %s, the task's is %s", e.Session, tk.SessionID)
		}
	}
}

// lastOutput is the output of the last command a Responses request
// reports, "" when none.
func lastOutput(req *fakeapi.ResponsesRequest) string {
	outs := req.Outputs()
	if len(outs) == 0 {
		return ""
	}
	return outs[len(outs)-1].OutputText()
}
