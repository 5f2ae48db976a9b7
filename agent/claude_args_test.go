package agent

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"
)

func TestClaudeArgs(t *testing.T) {
	c := NewClaude(ClaudeConfig{Model: "sonnet", AllowedTools: []string{"Bash(git log:*)", "Edit"},
		ExtraArgs: []string{"--max-turns", "40"}, AllowGitWrites: true})
	id := "0b5c7a1e-0d55-4f6b-9a53-3c3a7d1b2f10"
	got := c.Args(Request{Prompt: "-not an arg", SessionID: id})
	want := []string{"-p", "--output-format", "stream-json", "--verbose", "--json-schema", Schema, "--session-id", id,
		"--permission-mode", "acceptEdits", "--model", "sonnet",
		"--allowedTools=Bash(git log:*)", "--allowedTools=Edit"}
	want = append(append(want, disallowedOutside()...), "--max-turns", "40")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("first run args =\n%q\nwant\n%q", got, want)
	}
	got = NewClaude(ClaudeConfig{PermissionMode: "dontAsk", AllowGitWrites: true}).Args(Request{SessionID: id, Resume: true})
	want = append([]string{"-p", "--output-format", "stream-json", "--verbose", "--json-schema", Schema, "--resume", id,
		"--permission-mode", "dontAsk"}, disallowedOutside()...)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("resume args =\n%q\nwant\n%q", got, want)
	}
}

// By default the agent may not move refs or the index: bh commits and
// lands. bh's MCP server answers the permission prompts, a task's granted
// tools are allowed, and the session is named for claude --resume.
func TestClaudeArgsGuardRailsAndMCP(t *testing.T) {
	c := NewClaude(ClaudeConfig{MCP: &MCPServer{Command: "/bin/bh", Args: []string{"mcp"}, Env: map[string]string{"X": "1"}}})
	id := "0b5c7a1e-0d55-4f6b-9a53-3c3a7d1b2f10"
	got := c.Args(Request{SessionID: id, TaskID: "tm-1", Name: "bh tm-1: Paint", AllowTools: []string{"Bash(go test ./...)"}})
	has := func(args ...string) bool {
		for i := 0; i+len(args) <= len(got); i++ {
			if reflect.DeepEqual(got[i:i+len(args)], args) {
				return true
			}
		}
		return false
	}
	for _, want := range [][]string{
		{"--name", "bh tm-1: Paint"},
		{"--allowedTools=Bash(go test ./...)"},
		{"--allowedTools=mcp__bh__ask_human"},
		{"--disallowedTools=Bash(git commit:*)"},
		{"--disallowedTools=Bash(git push:*)"},
		{"--disallowedTools=Bash(git reset:*)"},
		{"--permission-prompt-tool", "mcp__bh__permission_prompt"},
		{"--mcp-config", `{"mcpServers":{"bh":{"args":["mcp"],"command":"/bin/bh","env":{"BH_TASK_ID":"tm-1","X":"1"},"type":"stdio"}}}`},
	} {
		if !has(want...) {
			t.Errorf("args lack %q:\n%q", want, got)
		}
	}
}

func disallowedOutside() []string {
	var out []string
	for _, t := range outsideTools {
		out = append(out, "--disallowedTools="+t)
	}
	return out
}

// Claude's built-in tools that write git state outside the worktree
// (EnterWorktree) or reach past the run (scheduled prompts, wake-ups, the
// user's other sessions) are disallowed in every session bh starts, the
// human's takeover included, whatever the config allows and with git
// writes allowed.
func TestClaudeDisallowsToolsThatLeaveTheRun(t *testing.T) {
	c := NewClaude(ClaudeConfig{AllowedTools: []string{"EnterWorktree", "Bash"}, AllowGitWrites: true})
	req := Request{SessionID: "0b5c7a1e-0d55-4f6b-9a53-3c3a7d1b2f10"}
	for name, args := range map[string][]string{"run": c.Args(req), "takeover": c.TakeoverArgs(req)} {
		for _, tool := range []string{"EnterWorktree", "ExitWorktree", "CronCreate", "CronDelete", "CronList",
			"ScheduleWakeup", "RemoteTrigger", "SendMessage", "ListAgents"} {
			if !slices.Contains(args, "--disallowedTools="+tool) {
				t.Errorf("%s: %s is not disallowed:\n%q", name, tool, args)
			}
		}
		for _, tool := range []string{"Bash", "Edit", "Write", "Read", "Task"} {
			if slices.Contains(args, "--disallowedTools="+tool) {
				t.Errorf("%s: %s is disallowed", name, tool)
			}
		}
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
