package worker

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

// TestPreflightChecksOnlyAgentsInUse: with only git, sh and a fake codex
// on PATH, a worker whose tasks all ask for codex starts (its task runs),
// though the config's default agent is claude; a plain task, which would
// run on claude, makes preflight refuse, naming claude.
func TestPreflightChecksOnlyAgentsInUse(t *testing.T) {
	bin := t.TempDir()
	for _, name := range []string{"git", "sh"} {
		path, err := exec.LookPath(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(path, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	codex := "#!/bin/sh\necho 'codex-cli " + agent.CodexTested.Max + "'\n"
	if err := os.WriteFile(filepath.Join(bin, "codex"), []byte(codex), 0o755); err != nil {
		t.Fatal(err)
	}
	s := newStore(t)
	t.Setenv("PATH", bin)
	tk, err := s.Create(&task.Task{Title: "port it", AgentSettings: &task.AgentSettings{Agent: "codex"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := Run(ctx, ctx, s, Options{Once: true}); err != nil {
		t.Fatalf("worker with codex tasks only: %v", err)
	}
	if got := getTask(t, s, tk.ID); got.State == task.Open {
		t.Fatalf("the codex task did not run (%s)", got.State)
	}

	addTask(t, s, "plain")
	err = Run(ctx, ctx, s, Options{Once: true})
	var pe *PreflightError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "claude") {
		t.Fatalf("worker with a claude task and no claude: %v, want a preflight error naming claude", err)
	}
}
