package agent

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
)

const (
	installHint = "install it with npm install -g @anthropic-ai/claude-code, or set agent.binary in .bh/config.yaml"
	commandHint = "check agent.command in .bh/config.yaml"
)

// executable writes a program into dir.
func executable(t *testing.T, dir, name, body string, mode os.FileMode) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCheck(t *testing.T) {
	bin, empty, other := t.TempDir(), t.TempDir(), t.TempDir()
	agent := executable(t, bin, "my-agent", "#!/bin/sh\nexit 1\n", 0o755) // only looked up, never run
	plain := executable(t, bin, "plain", "", 0o644)
	claude := executable(t, bin, "claude", "#!/bin/sh\necho '9.9.9 (Claude Code)'\necho more\n", 0o755)
	broken := executable(t, other, "claude", "#!/bin/sh\necho 'Error: cannot find module' >&2\nexit 1\n", 0o755)
	brokenHint := "check that " + broken + " runs from your shell; if not, reinstall it with npm install -g @anthropic-ai/claude-code"
	tests := []struct {
		name, path, argv0 string
		version           string // when it passes
		reason, hint      string // when it fails
		notFound          bool   // the error wraps exec.ErrNotFound
	}{
		{name: "command on PATH", path: bin, argv0: "my-agent"},
		{name: "command by path", path: empty, argv0: agent},
		{name: "command missing", path: empty, argv0: "my-agent", reason: "agent command my-agent not found",
			hint: commandHint, notFound: true},
		{name: "command not executable", path: bin, argv0: plain, reason: "agent command " + plain + " is not an executable file",
			hint: commandHint},
		{name: "claude on PATH", path: bin, argv0: "claude", version: "9.9.9 (Claude Code)"},
		{name: "claude by path", path: empty, argv0: claude, version: "9.9.9 (Claude Code)"},
		{name: "claude missing", path: empty, argv0: "claude", reason: "claude not found on PATH", hint: installHint,
			notFound: true},
		{name: "claude missing by path", path: bin, argv0: filepath.Join(empty, "claude"),
			reason: filepath.Join(empty, "claude") + " not found", hint: installHint},
		{name: "claude broken", path: bin, argv0: broken,
			reason: broken + " --version exited with status 1: Error: cannot find module", hint: brokenHint},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("PATH", tt.path)
			version, err := Check(context.Background(), tt.argv0)
			if tt.reason == "" {
				if err != nil || version != tt.version {
					t.Errorf("Check = %q, %v; want %q", version, err, tt.version)
				}
				return
			}
			var ce *CheckError
			if !errors.As(err, &ce) || ce.Error() != tt.reason || ce.Hint() != tt.hint {
				t.Fatalf("Check = %q, %v; want a CheckError %q with hint %q", version, err, tt.reason, tt.hint)
			}
			if errors.Is(err, exec.ErrNotFound) != tt.notFound {
				t.Errorf("errors.Is(%v, exec.ErrNotFound) = %v, want %v", err, !tt.notFound, tt.notFound)
			}
		})
	}
}

func TestCheckClaudeHangs(t *testing.T) {
	hang := executable(t, t.TempDir(), "claude", "#!/bin/sh\nexec sleep 60\n", 0o755)
	_, err := checkVersion(context.Background(), hang, 200*time.Millisecond, ClaudeTested)
	var ce *CheckError
	if !errors.As(err, &ce) || ce.Error() != hang+" --version did not answer within 200ms" {
		t.Fatalf("err = %v, want a CheckError saying claude did not answer", err)
	}
}

func TestPreflight(t *testing.T) {
	claude := fakeapi.Claude(t)
	renamed := executable(t, t.TempDir(), "claude-nightly", "#!/bin/sh\necho 10.0.0\n", 0o755)
	ok := script(t, "exit 0")
	tests := []struct {
		name   string
		runner interface {
			Preflight(context.Context) (string, error)
		}
		version string
		reason  string
	}{
		{"real claude", NewClaude(ClaudeConfig{Binary: claude}), fakeapi.ClaudeVersion + " (Claude Code)", ""},
		{"claude under another name", NewClaude(ClaudeConfig{Binary: renamed}), "10.0.0", ""},
		{"claude missing", NewClaude(ClaudeConfig{Binary: "/nonexistent/claude"}), "", "/nonexistent/claude not found"},
		{"command", NewCommand(CommandConfig{Argv: []string{ok, "--flag"}}), "", ""},
		{"command missing", NewCommand(CommandConfig{Argv: []string{"/nonexistent/agent"}}), "",
			"agent command /nonexistent/agent not found"},
		{"command not configured", NewCommand(CommandConfig{}), "", "agent command is not configured"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			version, err := tt.runner.Preflight(context.Background())
			if tt.reason != "" {
				var ce *CheckError
				if !errors.As(err, &ce) || ce.Error() != tt.reason || ce.Hint() == "" {
					t.Errorf("Preflight = %q, %v; want a CheckError %q with a hint", version, err, tt.reason)
				}
				return
			}
			if err != nil || !strings.HasPrefix(version, tt.version) {
				t.Errorf("Preflight = %q, %v; want %q", version, err, tt.version)
			}
		})
	}
}
