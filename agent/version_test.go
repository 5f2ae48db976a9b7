package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
)

// The releases the end-to-end tests install are the newest of the tested
// range, and the real CLIs' --version answers are inside it.
func TestTestedRangeIsWhatTheTestsRun(t *testing.T) {
	if fakeapi.ClaudeVersion != ClaudeTested.Max || fakeapi.CodexVersion != CodexTested.Max {
		t.Fatalf("the tests run claude %s and codex %s, the tested range ends at %s and %s",
			fakeapi.ClaudeVersion, fakeapi.CodexVersion, ClaudeTested.Max, CodexTested.Max)
	}
	for _, r := range []interface {
		Preflight(context.Context) (string, error)
		Tested() Tested
	}{NewClaude(ClaudeConfig{Binary: fakeapi.Claude(t)}), NewCodex(CodexConfig{Binary: fakeapi.Codex(t)})} {
		v, err := r.Preflight(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if w := r.Tested().Warning(v); w != "" {
			t.Errorf("%s --version %q: %s", r.Tested().Name, v, w)
		}
	}
}

func TestVersionWarning(t *testing.T) {
	tested := Tested{Name: "claude", Package: "@anthropic-ai/claude-code", Min: "2.1.300", Max: "2.1.330"}
	for line, want := range map[string]string{
		"2.1.330 (Claude Code)":  "",
		"2.1.300 (Claude Code)":  "",
		"2.1.310 (Claude Code)":  "",
		"3.0.0 (Claude Code)":    "claude 3.0.0 is newer than the releases bh was tested with (2.1.300 to 2.1.330); if runs fail, install the tested release: npm install -g @anthropic-ai/claude-code@2.1.330",
		"2.1.331":                "claude 2.1.331 is newer",
		"2.0.99 (Claude Code)":   "claude 2.0.99 is older than the releases bh was tested with",
		"2.1.99 (Claude Code)":   "claude 2.1.99 is older",
		"Claude Code, nightly":   `cannot tell which claude release this is (--version said "Claude Code, nightly")`,
		"codex-cli 2.1.330-beta": "",
	} {
		if got := tested.Warning(line); want == "" && got != "" || !strings.HasPrefix(got, want) {
			t.Errorf("Warning(%q) = %q, want %q…", line, got, want)
		}
	}
}

// A known-broken release is refused before any task is claimed, with the
// reason and the release to install instead.
func TestBrokenReleaseIsRefused(t *testing.T) {
	old := ClaudeTested.Broken
	ClaudeTested.Broken = map[string]string{"2.1.200": "a test entry"}
	t.Cleanup(func() { ClaudeTested.Broken = old })
	dir := t.TempDir()
	broken := executable(t, dir, "claude", "#!/bin/sh\necho '2.1.200 (Claude Code)'\n", 0o755)
	_, err := NewClaude(ClaudeConfig{Binary: broken}).Preflight(context.Background())
	var ce *CheckError
	if !errors.As(err, &ce) || ce.Error() != "claude 2.1.200 is known not to work with bh: a test entry" ||
		ce.Hint() != "install the release bh was tested with: npm install -g @anthropic-ai/claude-code@"+ClaudeTested.Max {
		t.Fatalf("Preflight = %v", err)
	}
	if _, err := Check(context.Background(), broken); !errors.As(err, &ce) {
		t.Errorf("Check = %v, want the refusal", err)
	}
	fine := executable(t, dir, "claude2", "#!/bin/sh\necho '2.1.201 (Claude Code)'\n", 0o755)
	if _, err := NewClaude(ClaudeConfig{Binary: fine}).Preflight(context.Background()); err != nil {
		t.Errorf("another release: %v", err)
	}
}
