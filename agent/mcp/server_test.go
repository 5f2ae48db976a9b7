package mcp

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/ask"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func newStore(t *testing.T) *store.Store {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	s, _, err := store.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// testOutbox is task id's outbox in the tests: a folder beside the store.
func testOutbox(s *store.Store, id string) string {
	return filepath.Join(filepath.Dir(s.Dir), ".outbox", id)
}

// connect serves the MCP tools of task id in-process and returns a client.
func connect(t *testing.T, s *store.Store, id string) *sdk.ClientSession {
	return connectAs(t, s, id, false)
}

// connectAs is connect for a planning run, or not.
func connectAs(t *testing.T, s *store.Store, id string, planning bool) *sdk.ClientSession {
	t.Helper()
	ct, st := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go Serve(ctx, s, id, testOutbox(s, id), planning, st)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func call(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("%s: %v %+v", name, err, res)
	}
	return res.Content[0].(*sdk.TextContent).Text
}

func TestToolsRecordQuestionsAndReadTheStore(t *testing.T) {
	s := newStore(t)
	me, err := s.Create(&task.Task{Title: "Mine"})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s, me.ID)

	// AskUserQuestion through the permission prompt: the typed questions, and a deny.
	out := call(t, cs, PermissionPrompt, map[string]any{"tool_name": "AskUserQuestion", "input": map[string]any{
		"questions": []any{map[string]any{"question": "Tabs?", "header": "Style", "multiSelect": true,
			"options": []any{map[string]any{"label": "tabs"}, map[string]any{"label": "spaces"}}}}}})
	var decision map[string]string
	if json.Unmarshal([]byte(out), &decision) != nil || decision["behavior"] != "deny" || !strings.Contains(decision["message"], "Stop") {
		t.Fatalf("permission answer %s", out)
	}
	// Another tool: an approval of exactly that call.
	call(t, cs, PermissionPrompt, map[string]any{"tool_name": "Bash", "input": map[string]any{"command": "make deploy"}})
	call(t, cs, AskHuman, map[string]any{"question": "Which port?", "options": []any{"80", "8080"}, "context": "both free"})

	qs, err := TakeAsked(testOutbox(s, me.ID))
	if err != nil || len(qs) != 3 {
		t.Fatalf("asked: %+v %v", qs, err)
	}
	if q := qs[0]; q.Question != "Tabs?" || q.Header != "Style" || !q.MultiSelect || q.Type != ask.QuestionChoice || len(q.Options) != 2 {
		t.Errorf("AskUserQuestion: %+v", q)
	}
	if q := qs[1]; q.Type != ask.QuestionApproval || q.Tool != "Bash(make deploy)" || !strings.Contains(q.Question, "make deploy") {
		t.Errorf("permission: %+v", q)
	}
	if q := qs[2]; q.Type != ask.QuestionChoice || len(q.Options) != 2 || !strings.Contains(q.Question, "both free") {
		t.Errorf("ask_human: %+v", q)
	}
	if again, _ := TakeAsked(testOutbox(s, me.ID)); len(again) != 0 {
		t.Errorf("questions taken twice: %+v", again)
	}

	// Work the agent discovers is a task linked to its own, which the
	// worker adds when the run ends (bh mcp cannot write the store).
	if out := call(t, cs, AddTask, map[string]any{"title": "Fix the flaky test", "priority": "P1"}); !strings.Contains(out, "linked to "+me.ID) {
		t.Errorf("add_task: %s", out)
	}
	recorded, err := TakeAdded(testOutbox(s, me.ID))
	if err != nil || len(recorded) != 1 || recorded[0].Title != "Fix the flaky test" || recorded[0].Priority != "P1" {
		t.Fatalf("added: %+v %v", recorded, err)
	}
	if _, err := s.Create(&task.Task{Title: recorded[0].Title, Priority: recorded[0].Priority, Parent: me.ID}); err != nil {
		t.Fatal(err)
	}
	var ready []brief
	json.Unmarshal([]byte(call(t, cs, ReadyTasks, map[string]any{})), &ready)
	var added *brief
	for i := range ready {
		if ready[i].Title == "Fix the flaky test" {
			added = &ready[i]
		}
	}
	if added == nil || added.Parent != me.ID || added.Priority != "P1" {
		t.Fatalf("ready tasks: %+v", ready)
	}
	var shown brief
	json.Unmarshal([]byte(call(t, cs, ShowTask, map[string]any{"id": added.ID})), &shown)
	if shown.Title != "Fix the flaky test" {
		t.Errorf("show_task: %+v", shown)
	}
}

// In a planning run, a tool call the agent's plan mode refused is denied
// without a question (it is to plan the change, not make it); its own
// questions are asked as in any run.
func TestPlanningDeniesPermissionPrompts(t *testing.T) {
	s := newStore(t)
	me, err := s.Create(&task.Task{Title: "Mine"})
	if err != nil {
		t.Fatal(err)
	}
	cs := connectAs(t, s, me.ID, true)
	out := call(t, cs, PermissionPrompt, map[string]any{"tool_name": "Write", "input": map[string]any{"file_path": "a.go"}})
	var decision map[string]string
	if json.Unmarshal([]byte(out), &decision) != nil || decision["behavior"] != "deny" || !strings.Contains(decision["message"], "planning run") {
		t.Fatalf("permission answer %s", out)
	}
	call(t, cs, PermissionPrompt, map[string]any{"tool_name": "AskUserQuestion", "input": map[string]any{
		"questions": []any{map[string]any{"question": "Tabs?", "options": []any{map[string]any{"label": "tabs"}}}}}})
	if qs, err := TakeAsked(testOutbox(s, me.ID)); err != nil || len(qs) != 1 || qs[0].Question != "Tabs?" {
		t.Errorf("asked in planning: %+v %v", qs, err)
	}
}
