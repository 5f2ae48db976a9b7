package worker

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/jail"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// The real Claude Code CLI calls bh's add_task from inside the sandbox,
// where the task store is read-only: the task goes through the run's
// outbox, and the worker adds it, linked, when the run ends (and, the
// worker working until nothing is ready, runs it too).
func TestClaudeAddTaskInTheSandbox(t *testing.T) {
	needBwrap(t)
	t.Parallel()
	srv := fakeapi.New(t, func(req *fakeapi.Request) fakeapi.Turn {
		if res := req.ToolResults(); !strings.Contains(req.Prompt(), "Look around") {
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "fixed"}))
		} else if len(res) == 0 {
			return fakeapi.Reply(fakeapi.ToolUse("mcp__bh__add_task", map[string]any{"title": "Fix the flaky test",
				"description": "TestX fails one run in ten", "priority": "P1"}))
		} else if !strings.Contains(res[0].ResultText(), "when your run ends") {
			return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "failed", "summary": res[0].ResultText()}))
		}
		return fakeapi.Reply(fakeapi.StructuredOutput(map[string]any{"status": "completed", "summary": "noted the flaky test"}))
	})
	s := newStore(t)
	s.Config.Agent = config.AgentConfig{Binary: fakeapi.Claude(t), Timeout: realTimeout}
	tk := addTask(t, s, "Look around")
	runWith(t, s, Options{Env: fakeapi.Env(t, srv)})
	got := getTask(t, s, tk.ID)
	if got.State != task.Closed {
		t.Fatalf("the task is %s: %s", got.State, got.Summary)
	}
	if e, ok := lastEvent(got, task.EventRunStarted); !ok || e.Sandbox != jail.Sandboxed {
		t.Errorf("the run records sandbox %q", e.Sandbox)
	}
	tasks, _, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var added *task.Task
	for _, x := range tasks {
		if x.Title == "Fix the flaky test" && x.Parent == tk.ID {
			added = x
		}
	}
	if added == nil || added.Priority != "P1" || added.Description != "TestX fails one run in ten" {
		t.Fatalf("the added task: %+v", added)
	}
}
