package worker

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// The real Claude Code CLI makes the same denied call twice in one run:
// the human is asked once, a plain yes (what `bh respond --yes` sends)
// answers it, and the resumed run may make the call and lands.
func TestClaudeRepeatedPermissionRequestIsOneQuestion(t *testing.T) {
	t.Parallel()
	const cmd = "sh -c 'echo deployed > deployed.txt'"
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		res, calls := req.ToolResults(), 0
		for _, u := range req.ToolUses() {
			if u.Name == "Bash" {
				calls++
			}
		}
		denied := len(res) == 1 && strings.Contains(res[0].ResultText(), "put your question")
		switch {
		case len(res) == 1 && !denied:
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "deployed"}))
		case denied && calls >= 2:
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "needs_input", "summary": "waiting for permission",
				"question": "May I deploy?"}))
		}
		return fakeapi.Reply(fakeapi.Bash(cmd)) // first, again after the deny, and on the resume
	})
	s := newStore(t)
	s.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), Timeout: realTimeout}
	opt := Options{Env: fakeapi.Env(t, srv)}
	tk := addTask(t, s, "Deploy")
	runWith(t, s, opt)
	got := getTask(t, s, tk.ID)
	if got.State != task.AwaitingInput {
		t.Fatalf("after the denied calls: %s (%s)", got.State, got.Summary)
	}
	if p := got.Pending(); len(p) != 1 || p[0].Tool != "Bash("+cmd+")" || p[0].Type != task.ApprovalQuestion {
		t.Fatalf("want one approval question, pending %+v", p)
	}
	answer(t, s, tk.ID, "yes")
	runWith(t, s, opt)
	done := getTask(t, s, tk.ID)
	if done.State != task.Closed {
		t.Fatalf("after the approval: %s (%s)", done.State, done.Summary)
	}
	if c := committed(t, s.Root, "HEAD"); len(c) != 2 || c[1] != "deployed.txt" {
		t.Errorf("commit holds %v, want the allowed command's file", c)
	}
}
