package worker

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// The real Claude Code CLI against a fake Messages API: its first
// completion fails the repository's check, so bh resumes the same session
// with the failing command and output (the next request carries them on
// top of the earlier turns); the fix passes and lands.
func TestClaudeCheckFailureResumesSession(t *testing.T) {
	t.Parallel()
	const failing = "file.txt says broken, want fixed"
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		fixing := strings.Contains(req.Prompt(), "A check failed")
		switch {
		case len(req.ToolResults()) == 0 && fixing:
			return fakeapi.Reply(fakeapi.Write("file.txt", "fixed\n"))
		case len(req.ToolResults()) == 0:
			return fakeapi.Reply(fakeapi.Write("file.txt", "broken\n"))
		}
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "wrote file.txt"}))
	})
	s := newStore(t)
	s.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), Timeout: realTimeout}
	s.Config.Checks = []string{"grep -q fixed file.txt || { echo '" + failing + "'; exit 1; }"}
	tk := addTask(t, s, "Fix file.txt")
	runWith(t, s, Options{Env: fakeapi.Env(t, srv)})

	got := getTask(t, s, tk.ID)
	if got.State != task.Closed {
		t.Fatalf("%s: %s (%s)", tk.ID, got.State, lastNote(got))
	}
	reqs := srv.Requests()
	i := 0
	for i < len(reqs) && !strings.Contains(reqs[i].Prompt(), "A check failed") {
		i++
	}
	if i != 2 {
		t.Fatalf("the check's failure reached the API in request %d of %d, want the second run's first (2)", i, len(reqs))
	}
	p := reqs[i].Prompt()
	for _, want := range []string{failing, "grep -q fixed file.txt", "status 1"} {
		if !strings.Contains(p, want) {
			t.Errorf("the resumed request lacks %q:\n%s", want, p)
		}
	}
	if calls := reqs[i].ToolUses(); len(calls) == 0 || calls[0].Name != "Write" {
		t.Errorf("the resumed request lacks the first run's turns (not the same session): %+v", calls)
	}
	if evs := checkEvents(got); len(evs) != 2 || evs[0].ExitCode != 1 || evs[1].ExitCode != 0 {
		t.Errorf("check events %+v, want a failed round then a passing one", evs)
	}
	if body := readFile(t, s.Root, "file.txt"); body != "fixed\n" {
		t.Errorf("landed file.txt %q", body)
	}
}
