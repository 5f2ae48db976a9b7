package agent

import (
	"reflect"
	"strings"
	"testing"
)

// Every flag goes before "resume", the sandbox is set through -c (resume
// refuses -s), and the network stays off unless allowed.
func TestCodexArgs(t *testing.T) {
	c := NewCodex(CodexConfig{Model: "gpt-5-codex", ExtraArgs: []string{"--skip-git-repo-check"}})
	got := c.Args(Request{Prompt: "-not an arg"}, "/s.json", "/last.txt")
	want := []string{"exec", "--json", "--color", "never", "--output-schema", "/s.json", "-o", "/last.txt",
		"-c", `sandbox_mode="workspace-write"`, "-c", "sandbox_workspace_write.network_access=false", "-c", "sandbox_workspace_write.exclude_slash_tmp=true",
		"-c", `approval_policy="never"`, "-m", "gpt-5-codex", "--skip-git-repo-check", "-"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("first run args =\n%q\nwant\n%q", got, want)
	}
	got = NewCodex(CodexConfig{Sandbox: "read-only", Network: true}).Args(
		Request{SessionID: "01a20a75-0504-7662-83d0-d34dafed0869", Resume: true}, "/s.json", "/last.txt")
	want = []string{"exec", "--json", "--color", "never", "--output-schema", "/s.json", "-o", "/last.txt",
		"-c", `sandbox_mode="read-only"`, "-c", "sandbox_workspace_write.network_access=true", "-c", "sandbox_workspace_write.exclude_slash_tmp=true",
		"-c", `approval_policy="never"`, "resume", "01a20a75-0504-7662-83d0-d34dafed0869", "-"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("resume args =\n%q\nwant\n%q", got, want)
	}
}

// bh's MCP server reaches codex as TOML values that survive quotes.
func TestCodexArgsMCP(t *testing.T) {
	c := NewCodex(CodexConfig{MCP: &MCPServer{Command: `/opt/b"h`, Args: []string{"mcp"}, Env: map[string]string{"X": "1"}}})
	got := strings.Join(c.Args(Request{TaskID: "tm-1"}, "/s", "/l"), "\n")
	for _, want := range []string{`mcp_servers.bh.command="/opt/b\"h"`, `mcp_servers.bh.args=["mcp"]`,
		`mcp_servers.bh.env={"BH_TASK_ID" = "tm-1", "X" = "1"}`, `mcp_servers.bh.default_tools_approval_mode="approve"`} {
		if !strings.Contains(got, want) {
			t.Errorf("args lack %s:\n%s", want, got)
		}
	}
}

// The contract leads the prompt on every run: codex has no flag to add to
// its instructions.
func TestCodexPromptCarriesTheContract(t *testing.T) {
	c := NewCodex(CodexConfig{})
	if got := c.prompt(Request{Prompt: "answer: yes", System: "the contract", Resume: true}); got != "the contract\n\nanswer: yes" {
		t.Errorf("prompt = %q", got)
	}
	if got := c.prompt(Request{Prompt: "p"}); got != "p" {
		t.Errorf("prompt without a contract = %q", got)
	}
}

func TestParseCodex(t *testing.T) {
	stream := []byte(`{"type":"thread.started","thread_id":"th-1"}
{"type":"item.completed","item":{"id":"item_0","type":"error","message":"Model metadata for x not found"}}
{"type":"turn.started"}
{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","exit_code":2,"status":"failed"}}
{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"{\"status\":\"blocked\",\"summary\":\"no db\",\"details\":null}"}}
{"type":"turn.completed","usage":{"input_tokens":20}}
`)
	out, err := ParseCodex(stream, nil)
	if err != nil || out.Result.Status != StatusBlocked || out.SessionID != "th-1" || out.Turns != 1 {
		t.Fatalf("ParseCodex = %+v, %v", out, err)
	}
	// -o's file wins over the stream's last message.
	out, err = ParseCodex(stream, []byte(`{"status":"completed","summary":"done"}`))
	if err != nil || out.Result.Status != StatusCompleted {
		t.Errorf("with -o: %+v, %v", out, err)
	}
	if _, err := ParseCodex([]byte(`{"type":"thread.started","thread_id":"th-1"}`+"\n"), []byte("just prose")); err == nil {
		t.Error("prose: want an error")
	}
	tr := Transcript(stream)
	want := []Entry{{Role: "tool", Text: "→ Bash: bash -lc ls (exit 2)"},
		{Role: "assistant", Text: `{"status":"blocked","summary":"no db","details":null}`}}
	if !reflect.DeepEqual(tr, want) {
		t.Errorf("transcript = %+v", tr)
	}
}
