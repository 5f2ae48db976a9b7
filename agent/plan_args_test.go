package agent

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A read-only request (a planning run) is each agent's own read-only
// mode: claude's plan mode without the user's allow rules or ExitPlanMode
// (and bh mcp told, to deny its permission prompts), codex's read-only
// sandbox whatever the config's, BH_PHASE=plan for a command agent.
func TestReadOnlyRequests(t *testing.T) {
	id := "0b5c7a1e-0d55-4f6b-9a53-3c3a7d1b2f10"
	claude := NewClaude(ClaudeConfig{AllowedTools: []string{"Edit"}, MCP: &MCPServer{Command: "/bin/bh", Args: []string{"mcp"}}})
	got := claude.Args(Request{SessionID: id, ReadOnly: true, AllowTools: []string{"Bash(rm -rf x)"}})
	i := slices.Index(got, "--permission-mode")
	if i < 0 || got[i+1] != "plan" || slices.Contains(got, "--allowedTools=Edit") ||
		slices.Contains(got, "--allowedTools=Bash(rm -rf x)") || !slices.Contains(got, "--disallowedTools=ExitPlanMode") ||
		!strings.Contains(strings.Join(got, " "), `"BH_PHASE":"plan"`) {
		t.Errorf("claude's read-only args: %q", got)
	}
	if got := claude.Args(Request{SessionID: id}); !slices.Contains(got, "--allowedTools=Edit") ||
		slices.Contains(got, "--disallowedTools=ExitPlanMode") || strings.Contains(strings.Join(got, " "), "BH_PHASE") {
		t.Errorf("claude's args, not read-only: %q", got)
	}

	codex := NewCodex(CodexConfig{Sandbox: "danger-full-access"})
	if got := codex.Args(Request{ReadOnly: true}, "/s", "/l"); !slices.Contains(got, `sandbox_mode="read-only"`) {
		t.Errorf("codex's read-only args: %q", got)
	}

	dir := t.TempDir()
	agent := script(t, `printf '%s' "$BH_PHASE" > phase.txt
echo '{"status":"completed","summary":"planned"}'
`)
	for readOnly, want := range map[bool]string{true: "plan", false: ""} {
		if _, err := NewCommand(CommandConfig{Argv: []string{agent}}).Run(context.Background(),
			Request{Dir: dir, SessionID: "s", TaskID: "bh-1", ReadOnly: readOnly}); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "phase.txt")); string(got) != want {
			t.Errorf("read-only %v: BH_PHASE=%q, want %q", readOnly, got, want)
		}
	}
}
