package agent

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

func TestClaudeArgs(t *testing.T) {
	c := NewClaude(ClaudeConfig{Model: "sonnet", AllowedTools: []string{"Bash(git log:*)", "Edit"},
		ExtraArgs: []string{"--max-turns", "40"}})
	id := "0b5c7a1e-0d55-4f6b-9a53-3c3a7d1b2f10"
	got := c.Args(Request{Prompt: "-not an arg", SessionID: id})
	want := []string{"-p", "--output-format", "json", "--json-schema", Schema, "--session-id", id,
		"--permission-mode", "acceptEdits", "--model", "sonnet",
		"--allowedTools=Bash(git log:*)", "--allowedTools=Edit", "--max-turns", "40"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("first run args =\n%q\nwant\n%q", got, want)
	}
	got = NewClaude(ClaudeConfig{PermissionMode: "dontAsk"}).Args(Request{SessionID: id, Resume: true})
	want = []string{"-p", "--output-format", "json", "--json-schema", Schema, "--resume", id,
		"--permission-mode", "dontAsk"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("resume args =\n%q\nwant\n%q", got, want)
	}
}

func TestClaudeRejectsBadSessionID(t *testing.T) {
	_, err := NewClaude(ClaudeConfig{Binary: "/nonexistent"}).Run(context.Background(),
		Request{SessionID: "task-1", Dir: t.TempDir()})
	var re *RunError
	if !errors.As(err, &re) || re.Reason != `claude session id "task-1" is not a uuid` {
		t.Fatalf("err = %v", err)
	}
}
