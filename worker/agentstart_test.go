package worker

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/doctor"

	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
)

// TestPreflightStartsTheAgentInTheSandbox: an agent installed as npm
// installs it, a link whose target lies in a folder the sandbox hides (a
// repository beside the user's), starts there, and bh doctor says so; an
// agent that answers --version outside but cannot start inside (its
// interpreter is in a hidden folder) stops the worker before any task is
// claimed, and bh doctor names it, with what to do.
func TestPreflightStartsTheAgentInTheSandbox(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	s := newStore(t)
	sibling := filepath.Join(filepath.Dir(s.Root), "tools")
	gitT(t, filepath.Dir(s.Root), "init", "-q", sibling)
	version := "#!/bin/sh\necho '2.1.330 (Claude Code)'\n"
	writeFile(t, sibling, "node_modules/@anthropic-ai/claude-code/bin/claude.exe", version)
	os.Chmod(filepath.Join(sibling, "node_modules/@anthropic-ai/claude-code/bin/claude.exe"), 0o755)
	linked := filepath.Join(t.TempDir(), "node_modules", ".bin", "claude")
	os.MkdirAll(filepath.Dir(linked), 0o755)
	if err := os.Symlink(filepath.Join(sibling, "node_modules/@anthropic-ai/claude-code/bin/claude.exe"), linked); err != nil {
		t.Fatal(err)
	}
	// An interpreter the worker can run, in a folder the sandbox hides.
	if err := os.Symlink("/bin/sh", filepath.Join(sibling, "sh")); err != nil {
		t.Fatal(err)
	}
	stranded := filepath.Join(t.TempDir(), "claude")
	writeFile(t, filepath.Dir(stranded), "claude", "#!"+filepath.Join(sibling, "sh")+"\necho '2.1.330 (Claude Code)'\n")
	os.Chmod(stranded, 0o755)
	ctx := context.Background()

	s.Config.Agent = config.AgentConfig{Kind: "claude", Binary: linked}
	w, err := newWorker(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.startsInSandbox(ctx, s.Config.Agent); err != nil {
		t.Errorf("the agent npm installed beside the repository: %v", err)
	}
	if f := agentFinding(t, s); f.Status != doctor.OK {
		t.Errorf("bh doctor: %+v", f)
	}

	s.Config.Agent = config.AgentConfig{Kind: "claude", Binary: stranded}
	addTask(t, s, "never claimed")
	err = Run(ctx, ctx, s, Options{Once: true})
	var pe *PreflightError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), stranded+" cannot start in the sandbox") ||
		!strings.Contains(pe.Hint(), "sandbox.readable") {
		t.Fatalf("worker with an agent that cannot start in the sandbox: %v (hint %q)", err, hint(pe))
	}
	if f := agentFinding(t, s); f.Status != doctor.Error || !strings.Contains(f.Message, "cannot start in the sandbox") {
		t.Errorf("bh doctor: %+v", f)
	}
}

func hint(pe *PreflightError) string {
	if pe == nil {
		return ""
	}
	return pe.Hint()
}

// agentFinding is bh doctor's word on the agent.
func agentFinding(t *testing.T, s *store.Store) doctor.Finding {
	t.Helper()
	r, err := runDoctor(s, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Findings {
		if f.Check == "agent" {
			return f
		}
	}
	t.Fatalf("bh doctor has no word on the agent: %+v", r.Findings)
	return doctor.Finding{}
}

// TestPreflightNamesAPrivilegedAPIPort: an ANTHROPIC_BASE_URL on a port
// below 1024 cannot be bridged into the sandbox, which opens none there:
// the worker stops before any task is claimed, and says to move the API
// to a port from 1024 up (not to make folders readable).
func TestPreflightNamesAPrivilegedAPIPort(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	s := newStore(t)
	claude := filepath.Join(t.TempDir(), "claude")
	writeFile(t, filepath.Dir(claude), "claude", "#!/bin/sh\necho '2.1.330 (Claude Code)'\n")
	os.Chmod(claude, 0o755)
	s.Config.Agent = config.AgentConfig{Kind: "claude", Binary: claude}
	addTask(t, s, "never claimed")
	ctx := context.Background()
	err := Run(ctx, ctx, s, Options{Once: true, Env: []string{"ANTHROPIC_BASE_URL=http://127.0.0.1:80"}})
	var pe *PreflightError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "127.0.0.1:80") ||
		!strings.Contains(pe.Hint(), "a port from 1024 up") || strings.Contains(pe.Hint(), "readable") {
		t.Fatalf("worker with its API on port 80: %v (hint %q)", err, hint(pe))
	}
}
