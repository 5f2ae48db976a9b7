package worker

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/git"
)

// The real Claude Code CLI against a fake Messages API: a gated task is
// rejected with feedback, resumed in the same claude session, gated again,
// approved and committed once.
func TestClaudeGateRejectResumeApprove(t *testing.T) {
	const feedback = "rename it to final.txt"
	completed := func(summary string) fakeapi.Turn {
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": summary,
			"confidence": 0.9}))
	}
	srv := fakeapi.New(t, fakeapi.Sequence(
		fakeapi.Reply(fakeapi.Text("Writing the first version."), fakeapi.Write("v1.txt", "the work\n")),
		completed("Wrote v1.txt."),
		fakeapi.Reply(fakeapi.Bash("mv v1.txt final.txt")),
		completed("Renamed v1.txt to final.txt."),
	))
	s := newStore(t)
	s.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), AllowedTools: []string{"Bash(mv:*)"}, Timeout: realTimeout}
	opt := Options{Env: fakeapi.Env(t, srv)}
	tk := gatedTask(t, s, "Write the work down")
	head := gitT(t, s.Root, "rev-parse", "HEAD")

	runWith(t, s, opt)
	round1 := getTask(t, s, tk.ID)
	q1 := pendingOf(t, round1)
	if round1.State != task.AwaitingInput || !q1.Gate || !strings.Contains(q1.Context, "v1.txt") {
		t.Fatalf("round 1: state %s (%s) question %+v", round1.State, round1.Summary, q1)
	}
	if exists(s.Root, "v1.txt") || !refExists(s.Root, git.ParkRef(tk.ID)) || gitT(t, s.Root, "rev-parse", "HEAD") != head {
		t.Fatal("round 1's work was not parked")
	}
	if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"no"}, Comment: feedback}}, "reviewer"); err != nil {
		t.Fatal(err)
	}

	runWith(t, s, opt)
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("claude made %d model requests, want 4", len(reqs))
	}
	resumed := reqs[2]
	if texts := resumed.UserTexts(); len(texts) < 2 || !strings.Contains(texts[0], "Write the work down") ||
		!strings.Contains(resumed.Prompt(), feedback) {
		t.Fatalf("resumed request's user texts: %q", texts)
	}
	var write map[string]string
	if calls := resumed.ToolUses(); len(calls) < 2 || calls[0].Name != "Write" ||
		json.Unmarshal(calls[0].Input, &write) != nil || write["file_path"] != "v1.txt" {
		t.Fatalf("the resumed session lacks the earlier turns: %+v", calls)
	}
	round2 := getTask(t, s, tk.ID)
	q2 := pendingOf(t, round2)
	if round2.State != task.AwaitingInput || !q2.Gate || q2.ID == q1.ID || !strings.Contains(q2.Context, "final.txt") {
		t.Fatalf("round 2: state %s (%s) question %+v", round2.State, round2.Summary, q2)
	}
	if round2.SessionID != round1.SessionID {
		t.Fatalf("session changed from %s to %s", round1.SessionID, round2.SessionID)
	}

	if _, err := Respond(s, tk.ID, []task.Answer{{QuestionID: q2.ID, Values: []string{"yes"}}}, "reviewer"); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, opt)
	if n := len(srv.Requests()); n != 4 {
		t.Fatalf("the approval ran claude again (%d requests)", n)
	}
	closed := getTask(t, s, tk.ID)
	if closed.State != task.Closed || closed.Summary != "Renamed v1.txt to final.txt." {
		t.Fatalf("closed: state %s summary %q", closed.State, closed.Summary)
	}
	if c := committed(t, s.Root, "HEAD"); !slices.Equal(c, []string{".bh/tasks/" + tk.ID + ".yaml", "final.txt"}) {
		t.Fatalf("commit holds %v", c)
	}
	if gitT(t, s.Root, "rev-parse", "HEAD~1") != head || readFile(t, s.Root, "final.txt") != "the work\n" {
		t.Fatal("want one commit with the final work")
	}
	for kind, want := range map[string]int{task.EventRunStarted: 2, task.EventInputRequested: 2,
		task.EventInputReceived: 2, task.EventCommit: 1} {
		if n := count(closed, kind); n != want {
			t.Errorf("history has %d %s events, want %d", n, kind, want)
		}
	}
}
