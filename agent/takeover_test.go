package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
)

// A takeover gets the flags of the worker's runs from the same builder:
// permission mode, git-write ban, bh's MCP server and permission prompts.
func TestTakeoverArgsAreTheWorkers(t *testing.T) {
	id := "0b5c7a1e-0d55-4f6b-9a53-3c3a7d1b2f10"
	mcp := &MCPServer{Command: "/bin/bh", Args: []string{"mcp"}}
	c := NewClaude(ClaudeConfig{PermissionMode: "dontAsk", MCP: mcp})
	req := Request{SessionID: id, TaskID: "tm-1", Resume: true}
	run := c.Args(req)
	got := c.TakeoverArgs(req)
	at := slices.Index(run, "--resume")
	if want := run[at:]; !reflect.DeepEqual(got, want) {
		t.Errorf("claude takeover args =\n%q\nwant the run's\n%q", got, want)
	}
	for _, want := range []string{"--disallowedTools=Bash(git commit:*)", "--permission-prompt-tool", "--mcp-config"} {
		if !slices.Contains(got, want) {
			t.Errorf("claude takeover args lack %q", want)
		}
	}
	x := NewCodex(CodexConfig{MCP: mcp, ExtraArgs: []string{"--skip-git-repo-check"}})
	got = x.TakeoverArgs(Request{SessionID: "th-1", TaskID: "tm-1"})
	exec := x.Args(Request{SessionID: "th-1", TaskID: "tm-1", Resume: true}, "s.json", "last.txt")
	cfg := exec[slices.Index(exec, "last.txt")+1 : slices.Index(exec, "--skip-git-repo-check")]
	if want := append(slices.Clone(cfg), "resume", "th-1"); !reflect.DeepEqual(got, want) {
		t.Errorf("codex takeover args =\n%q\nwant the run's settings\n%q", got, want)
	}
}

// What a human typed is a user entry with text; tool results, meta notes
// and a slash command's echoes (as /exit leaves them) are not.
func TestHumanTurns(t *testing.T) {
	claude := strings.Join([]string{
		`{"type":"user","message":{"role":"user","content":"bh's prompt"}}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"ok"}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"done"}]}}`,
		`{"type":"user","isMeta":true,"message":{"role":"user","content":"<local-command-caveat>Caveat</local-command-caveat>"}}`,
		`{"type":"user","message":{"role":"user","content":"use the left way"}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"and keep it short"}]}}`,
		`{"type":"user","message":{"role":"user","content":"<command-name>/exit</command-name>\n<command-message>exit</command-message>"}}`,
		`{"type":"user","message":{"role":"user","content":"<local-command-stdout>Bye!</local-command-stdout>"}}`,
		`not json`,
	}, "\n")
	c := NewClaude(ClaudeConfig{})
	before := strings.Join(strings.Split(claude, "\n")[:4], "\n")
	if got, want := Said(c, []byte(before), []byte(claude)), []string{"use the left way", "and keep it short"}; !reflect.DeepEqual(got, want) {
		t.Errorf("claude: said %q, want %q", got, want)
	}
	if got := Said(c, []byte(claude), []byte(claude)); got != nil {
		t.Errorf("claude, nothing new: said %q", got)
	}
	// As codex 0.169 writes them, and as an older codex did (no metadata).
	codex := strings.Join([]string{
		`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n</environment_context>"}],"internal_chat_message_metadata_passthrough":{"content_item_metadata":[{"provenance":{"type":"harness","hook":false}}]}}}`,
		`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"bh's prompt"}],"internal_chat_message_metadata_passthrough":{"content_item_metadata":[{"provenance":{"type":"user"}}]}}}`,
		`{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]}}`,
		`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<user_instructions>be nice</user_instructions>"}]}}`,
		`{"type":"event_msg","payload":{"type":"user_message","message":"go left"}}`,
		`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"go left"}],"internal_chat_message_metadata_passthrough":{"content_item_metadata":[{"provenance":{"type":"user"}}]}}}`,
		`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"and fast"}]}}`,
	}, "\n")
	before = strings.Join(strings.Split(codex, "\n")[:3], "\n")
	x := NewCodex(CodexConfig{})
	if got := Said(x, []byte(before), []byte(codex)); !reflect.DeepEqual(got, []string{"go left", "and fast"}) {
		t.Errorf("codex: said %q", got)
	}
}

// bh pre-accepts the worktree's trust and the worker's API key, keeps
// every other key, respects a rejected key and never invents onboarding.
func TestPrepareTakeover(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, ".claude.json")
	os.WriteFile(path, []byte(`{"numStartups": 3, "oauth": {"x": 1},
 "projects": {"/repo": {"hasTrustDialogAccepted": true}, "/wt/tm-1": {"allowedTools": ["Bash"]}},
 "customApiKeyResponses": {"approved": ["aaaaaaaaaaaaaaaaaaaa"], "rejected": ["rrrrrrrrrrrrrrrrrrrr"], "note": "kept"}}`), 0o640)
	c := NewClaude(ClaudeConfig{})
	key := "sk-ant-0123456789-ABCDEFGHIJKLMNOPQRST"
	req := Request{Env: []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=", "ANTHROPIC_API_KEY=" + key}}
	notice, err := c.PrepareTakeover(req, "/wt/tm-1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(notice, "first-run setup") {
		t.Errorf("notice = %q", notice)
	}
	var got map[string]any
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"numStartups": 3.0, "oauth": map[string]any{"x": 1.0},
		"projects": map[string]any{"/repo": map[string]any{"hasTrustDialogAccepted": true},
			"/wt/tm-1": map[string]any{"allowedTools": []any{"Bash"}, "hasTrustDialogAccepted": true}},
		"customApiKeyResponses": map[string]any{"approved": []any{"aaaaaaaaaaaaaaaaaaaa", key[len(key)-20:]},
			"rejected": []any{"rrrrrrrrrrrrrrrrrrrr"}, "note": "kept"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("~/.claude.json =\n%v\nwant\n%v", got, want)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", fi.Mode())
	}

	// A key the user rejected stays so; a finished onboarding is kept on.
	conf := t.TempDir()
	os.WriteFile(filepath.Join(conf, ".claude.json"), []byte(`{"lastOnboardingVersion": "2.1.0",
 "customApiKeyResponses": {"rejected": ["ABCDEFGHIJKLMNOPQRST"]}}`), 0o600)
	req.Env = append(req.Env, "CLAUDE_CONFIG_DIR="+conf)
	if notice, err := c.PrepareTakeover(req, "/wt/tm-2"); err != nil || notice != "" {
		t.Fatalf("notice %q, err %v", notice, err)
	}
	b, _ = os.ReadFile(filepath.Join(conf, ".claude.json"))
	if s := string(b); strings.Contains(s, `"approved"`) || !strings.Contains(s, `"hasCompletedOnboarding": true`) {
		t.Errorf("config dir's .claude.json:\n%s", s)
	}
}

// The real codex's rollout: its prompt is the one human turn, not the
// environment and instructions codex adds.
func TestCodexRolloutHumanTurns(t *testing.T) {
	t.Parallel()
	e := newCodexE2E(t, func(req *fakeapi.ResponsesRequest) fakeapi.Turn {
		return fakeapi.Reply(fakeapi.Final(map[string]any{"status": "completed", "summary": "ok"}))
	})
	out, err := e.run(t, Request{Prompt: "say hi please"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(e.codex.SessionFile(Request{SessionID: out.SessionID, Env: e.env}))
	if err != nil {
		t.Fatal(err)
	}
	if got := e.codex.HumanTurns(b); !reflect.DeepEqual(got, []string{"say hi please"}) {
		t.Errorf("human turns %q", got)
	}
}
