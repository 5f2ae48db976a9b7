package worker

import (
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// The real Codex CLI calls bh's ask_human through bh's MCP server (codex
// offers it in the namespace mcp__bh, and would refuse the call under
// approval_policy="never" were bh's tools not approved up front). The
// question parks the task although the model then claims to be done; the
// answer reaches the resumed thread byte for byte, and the task lands.
func TestCodexAskHumanThroughMCP(t *testing.T) {
	t.Parallel()
	const question = "Which port should the server listen on?"
	const reply = "8080 — behind \"nginx\"; keep ✓ TLS off\n(for now)"
	srv := fakeapi.NewResponses(t, func(req *fakeapi.ResponsesRequest) fakeapi.Turn {
		switch {
		case strings.Contains(req.Prompt(), reply):
			if len(req.Outputs()) == 1 {
				return fakeapi.Reply(fakeapi.Exec("printf 'port: 8080\\n' > port.yaml"))
			}
			return fakeapi.Reply(fakeapi.Final(map[string]any{"status": "completed", "summary": "set the port",
				"details": nil}))
		case len(req.Outputs()) == 0:
			return fakeapi.Reply(fakeapi.MCP("bh", "ask_human", map[string]any{"question": question,
				"context": "both 80 and 8080 are free"}))
		}
		// The model ignores "stop" and says it is done: bh must not believe it.
		return fakeapi.Reply(fakeapi.Final(map[string]any{"status": "completed", "summary": "guessed", "details": nil}))
	})
	s := newStore(t)
	s.Config.Agent = config.AgentConfig{Kind: "codex", Binary: fakeapi.Codex(t), Timeout: realTimeout}
	opt := Options{Env: fakeapi.CodexEnv(t, srv)}
	tk := addTask(t, s, "Pick the port")
	runWith(t, s, opt)

	asked := getTask(t, s, tk.ID)
	if asked.State != task.AwaitingInput {
		if reqs := srv.Requests(); len(reqs) > 0 { // none when codex failed before asking
			for _, o := range reqs[len(reqs)-1].Outputs() {
				t.Logf("tool output the model saw: %s", o.OutputText())
			}
		}
		t.Fatalf("after ask_human: %s (%s)", asked.State, asked.Summary)
	}
	if first := srv.Requests()[0]; !slices.Contains(first.Tools, "mcp__bh") {
		t.Errorf("codex offered no bh tools: %q", first.Tools)
	}
	q := pendingOf(t, asked)
	if !strings.HasPrefix(q.Question, question) || !strings.Contains(q.Question, "8080 are free") || q.Type != task.FreeformQuestion {
		t.Fatalf("question: %+v", q)
	}
	if out := srv.Requests()[1].Outputs(); len(out) != 1 || !strings.Contains(out[0].OutputText(), "put your question to the human") {
		t.Fatalf("the model was not told its question was taken: %+v", out)
	}
	if _, err := Respond(s, tk.ID, []task.Answer{{QuestionID: q.ID, Values: []string{reply}}}, "human"); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, opt)
	done := getTask(t, s, tk.ID)
	if done.State != task.Closed || done.SessionID != asked.SessionID {
		t.Fatalf("after the answer: %s (%s), thread %s -> %s", done.State, done.Summary, asked.SessionID, done.SessionID)
	}
	reqs := srv.Requests()
	resumed := reqs[2]
	if p := resumed.Prompt(); !strings.Contains(p, reply) || !strings.Contains(p, question) {
		t.Errorf("the resumed prompt lacks the question or the answer byte for byte:\n%s", p)
	}
	if calls := resumed.Calls(); len(calls) == 0 || calls[0].Name != "ask_human" {
		t.Errorf("the resumed thread lacks the earlier ask_human call: %+v", calls)
	}
	if c := committed(t, s.Root, "HEAD"); !slices.Contains(c, "port.yaml") {
		t.Errorf("commit holds %v, want port.yaml", c)
	}
}

// A 2 MiB ask_human through the real codex is refused with a tool error
// the model can act on, never acknowledged and then dropped: the model
// asks again, shorter, and the task parks on that question instead of
// closing.
func TestCodexOversizedAskHumanIsRefused(t *testing.T) {
	t.Parallel()
	// 2 MiB of arguments would be past the model's context window as the
	// fake counts tokens, and codex would compact the thread.
	small := func(turn fakeapi.Turn) fakeapi.Turn { turn.Tokens = 1000; return turn }
	srv := fakeapi.NewResponses(t, func(req *fakeapi.ResponsesRequest) fakeapi.Turn {
		switch out := req.Outputs(); len(out) {
		case 0:
			return small(fakeapi.Reply(fakeapi.MCP("bh", "ask_human", map[string]any{"question": "Which schema?",
				"context": strings.Repeat("x", 2<<20)})))
		case 1:
			if strings.Contains(out[0].OutputText(), "question too large") {
				return small(fakeapi.Reply(fakeapi.MCP("bh", "ask_human", map[string]any{"question": "Which schema? (see notes.md)"})))
			}
		}
		return small(fakeapi.Reply(fakeapi.Final(map[string]any{"status": "completed", "summary": "guessed", "details": nil})))
	})
	s := newStore(t)
	s.Config.Agent = config.AgentConfig{Kind: "codex", Binary: fakeapi.Codex(t), Timeout: realTimeout}
	tk := addTask(t, s, "Pick the schema")
	runWith(t, s, Options{Env: fakeapi.CodexEnv(t, srv)})
	got := getTask(t, s, tk.ID)
	reqs := srv.Requests()
	if len(reqs) < 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if out := reqs[1].Outputs(); len(out) != 1 || !strings.Contains(out[0].OutputText(), "question too large") {
		t.Fatalf("the model was not told the question was too large: %d outputs %.300s", len(out), out[0].OutputText())
	}
	if got.State != task.AwaitingInput {
		t.Fatalf("after the refused question: %s (%s)", got.State, got.Summary)
	}
	if q := pendingOf(t, got); q.Question != "Which schema? (see notes.md)" {
		t.Errorf("pending question %.100q", q.Question)
	}
}
