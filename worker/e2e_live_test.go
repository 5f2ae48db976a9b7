package worker

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
)

// The real Claude Code CLI in stream-json mode: the worker reports each
// tool call as it happens, and a model that hangs past the timeout leaves
// its partial transcript in the run log.
func TestClaudeHungRunLeavesItsTranscript(t *testing.T) {
	t.Parallel()
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		if len(req.ToolResults()) == 0 {
			return fakeapi.Reply(fakeapi.Text("Starting."), fakeapi.Write("half.txt", "half\n"))
		}
		return fakeapi.Hang()
	})
	s := newStore(t)
	s.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), Timeout: realTimeout}
	tk := addTask(t, s, "Hang halfway")
	// The timeout must fire after the hang begins: claude starts Node first.
	evs := runWith(t, s, Options{Env: fakeapi.Env(t, srv), Timeout: fakeapi.Patience(4 * time.Second)})
	got := getTask(t, s, tk.ID)
	if got.State != task.Failed || !strings.Contains(got.Summary, "timed out") {
		t.Fatalf("after the hang: %s (%s)", got.State, got.Summary)
	}
	var step bool
	for _, e := range evs {
		step = step || e.Kind == Step && e.Task == tk.ID && e.Summary == "Write half.txt"
	}
	if !step {
		t.Errorf("no step event for the Write: %+v", evs)
	}
	if feed, _ := os.ReadFile(store.StepsPath(s)); !strings.Contains(string(feed), `"step":"Write half.txt"`) {
		t.Errorf("the live feed lacks the step: %s", feed)
	}
	logs, _ := filepath.Glob(store.RunDir(s, tk.ID, "*.log"))
	if len(logs) != 1 {
		t.Fatalf("run logs: %q", logs)
	}
	b, _ := os.ReadFile(logs[0])
	for _, want := range []string{`"type":"assistant"`, `"name":"Write"`, "half.txt", "error: the agent timed out"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the run log lacks %s:\n%s", want, b)
		}
	}
	if !refExists(s.Root, git.ParkRef(tk.ID)) {
		t.Error("the hung run's partial work was not kept")
	}
	entries, runs, err := RunTranscript(s, tk.ID, 0)
	if err != nil || runs != 1 {
		t.Fatalf("transcript: %v (%d runs)", err, runs)
	}
	var said, wrote bool
	for _, e := range entries {
		said = said || e.Role == "assistant" && e.Text == "Starting."
		wrote = wrote || e.Role == "tool" && e.Text == "→ Write half.txt"
	}
	if !said || !wrote {
		t.Errorf("the transcript of the hung run: %+v", entries)
	}
}

// A model whose final answer is prose without the result object gets one
// more turn in the same session asking for it, rather than a failed task;
// the contract reaches it as an appended system prompt too.
func TestClaudeProseAnswerGetsOneNudge(t *testing.T) {
	t.Parallel()
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		if strings.Contains(req.Prompt(), "did not end with the result object") {
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "all done"}))
		}
		return fakeapi.Reply(fakeapi.Text("All done, the file is written."))
	})
	s := newStore(t)
	s.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), Timeout: realTimeout}
	tk := addTask(t, s, "Answer in prose")
	runWith(t, s, Options{Env: fakeapi.Env(t, srv)})
	got := getTask(t, s, tk.ID)
	if got.State != task.Closed || got.Summary != "all done "+ending.NoChangeNote {
		t.Fatalf("after the nudge: %s (%s)", got.State, got.Summary)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if texts := last.UserTexts(); len(texts) < 2 || !strings.Contains(texts[0], "Answer in prose") {
		t.Errorf("the nudge did not resume the same session: %q", texts)
	}
	var body struct {
		System json.RawMessage `json:"system"`
	}
	if json.Unmarshal(reqs[len(reqs)-1].Body, &body) != nil || !strings.Contains(string(body.System), "## How to finish") {
		t.Error("the result contract is not in the (resumed) system prompt")
	}
}
