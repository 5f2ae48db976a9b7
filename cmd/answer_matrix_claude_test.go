package cmd

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
)

// The answer matrix's claude rows: the real Claude Code CLI asks through
// its structured result (needs_input) and through bh's MCP ask_human tool;
// the answers, given with bh respond, must be in the resumed request's
// user message byte for byte. One repository and two worker passes hold
// every row, since each claude run costs a second or more.
func TestAnswerMatrixClaude(t *testing.T) {
	type claudeRow struct {
		title string
		ask   fakeapi.Part // the model's first turn
		give  [][]string   // bh respond arguments after the id, one command each
		want  []task.Question
	}
	needs := func(qs ...map[string]any) fakeapi.Part {
		list := make([]any, len(qs))
		for i, q := range qs {
			list[i] = q
		}
		return fakeapi.StructuredOutput(map[string]any{"status": "needs_input", "summary": "asks", "questions": list})
	}
	approval := map[string]any{"question": "Ship it?", "type": "approval"}
	choice := map[string]any{"question": "Which database?", "type": "choice",
		"options": []any{map[string]any{"label": "PostgreSQL"}, map[string]any{"label": "SQLite"}}}
	words := map[string]any{"question": "How should the config look?", "type": "freeform"}
	rows := []claudeRow{
		{title: "Claude row words by argument", ask: needs(words), give: [][]string{{tricky}}, want: []task.Question{text(tricky)}},
		{title: "Claude row ask_human choice with a comment",
			ask:  fakeapi.ToolUse("mcp__bh__ask_human", map[string]any{"question": "Which database?", "options": []any{"PostgreSQL", "SQLite"}}),
			give: [][]string{{"--choice", "SQLite", tricky}}, want: []task.Question{said([]string{"SQLite"}, tricky)}},
		{title: "Claude row several at once", ask: needs(approval, choice, words),
			give: [][]string{{"--no", "--choice", "PostgreSQL"}, {"--question", "3", tricky}},
			want: []task.Question{said([]string{"no"}, ""), said([]string{"PostgreSQL"}, ""), text(tricky)}},
	}
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		all := strings.Join(req.UserTexts(), "\n")
		for _, r := range rows {
			switch {
			case !strings.Contains(all, r.title):
			case strings.Contains(req.Prompt(), "Human Response to Your Question"):
				return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "resumed"}))
			case len(req.ToolResults()) > 0: // ask_human said to stop
				return fakeapi.Reply(needs(words))
			default:
				return fakeapi.Reply(r.ask)
			}
		}
		t.Errorf("unexpected request #%d, prompt %q", req.N, req.Prompt())
		return fakeapi.Fail(400, "invalid_request_error", "unexpected prompt")
	})
	for _, kv := range fakeapi.Env(t, srv) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	dir := t.TempDir()
	repoE2E(t, dir, "prefix: tm\nagent:\n  kind: claude\n  binary: "+fakeapi.Claude(t)+"\n  timeout: "+realTimeout+"\n")
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = strings.TrimSpace(bhE2E(t, dir, "add", r.title))
	}
	bhE2E(t, dir, "worker", "--once")
	for i, r := range rows {
		if st := bhTask(t, dir, ids[i]).State; st != task.AwaitingInput {
			t.Fatalf("%s: %s after its first run, want awaiting_input", r.title, st)
		}
		for _, g := range r.give {
			bhE2E(t, dir, append([]string{"respond", ids[i]}, g...)...)
		}
	}
	bhE2E(t, dir, "worker", "--once")
	for i, r := range rows {
		var resumed *fakeapi.Request
		for _, req := range requestsFor(srv, "Human Response to Your Question") {
			if strings.Contains(req.Prompt(), ids[i]) {
				resumed = req
			}
		}
		if resumed == nil {
			t.Errorf("%s: never resumed (%s)", r.title, bhTask(t, dir, ids[i]).State)
			continue
		}
		for k, q := range r.want {
			if want := "\nAnswer: " + q.AnswerText() + "\n"; !strings.Contains(resumed.Prompt(), want) {
				t.Errorf("%s: answer %d never reached claude as %q; its user message:\n%s", r.title, k+1, want, resumed.Prompt())
			}
		}
	}
}
