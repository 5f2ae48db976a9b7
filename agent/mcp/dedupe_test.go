package mcp

import (
	"testing"

	"github.com/bh-tracker/bh/task"
)

// The same permission request twice in one run (the same denied command,
// the same AskUserQuestion) is one question, and so is any question the
// human would see twice word for word; a different one is kept.
func TestIdenticalPermissionRequestsAreOneQuestion(t *testing.T) {
	s := newStore(t)
	me, err := s.Create(&task.Task{Title: "Mine"})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s, me.ID)
	deploy := map[string]any{"tool_name": "Bash", "input": map[string]any{"command": "make deploy", "description": "deploy"}}
	ask := map[string]any{"tool_name": "AskUserQuestion", "input": map[string]any{"questions": []any{
		map[string]any{"question": "Tabs?", "options": []any{map[string]any{"label": "tabs"}, map[string]any{"label": "spaces"}}},
		map[string]any{"question": "Width?"}}}}
	for range 2 {
		call(t, cs, PermissionPrompt, deploy)
		call(t, cs, PermissionPrompt, ask)
	}
	call(t, cs, PermissionPrompt, map[string]any{"tool_name": "Bash", "input": map[string]any{"command": "make deploy", "description": "again"}})
	call(t, cs, PermissionPrompt, map[string]any{"tool_name": "Write", "input": map[string]any{"file_path": "a.txt", "content": "1"}})
	call(t, cs, PermissionPrompt, map[string]any{"tool_name": "Write", "input": map[string]any{"file_path": "a.txt", "content": "2"}})
	call(t, cs, PermissionPrompt, map[string]any{"tool_name": "Bash", "input": map[string]any{"command": "make test"}})
	call(t, cs, AskHuman, map[string]any{"question": "Port?"})
	call(t, cs, AskHuman, map[string]any{"question": "Port?"})

	qs, err := TakeAsked(testOutbox(s, me.ID))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, q := range qs {
		got = append(got, q.Question)
	}
	want := []string{"Allow the agent to run `make deploy`?", "Tabs?", "Width?", "Allow the agent to use Write on a.txt?",
		"Allow the agent to run `make test`?", "Port?"}
	if len(got) != len(want) {
		t.Fatalf("questions %q\nwant %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("questions %q\nwant %q", got, want)
		}
	}
}
