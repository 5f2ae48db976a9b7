package worker

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

// TestUnreachableRemoteHoldsClaimsBack: with a shared remote out of reach,
// the worker takes no task (no machine could know it took it) and says so,
// and it does not stop.
func TestUnreachableRemoteHoldsClaimsBack(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	gitT(t, s.Root, "remote", "add", "origin", filepath.Join(t.TempDir(), "gone.git"))
	s.Config.Remote = "origin"
	tk := addTask(t, s, "Needs a claim")
	ran := false
	r := agent.RunnerFunc(func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		ran = true
		return &agent.Outcome{Result: done("ran")}, nil
	})
	evs := runOnce(t, s, r)
	if ran {
		t.Fatal("the agent ran without a claim on the remote")
	}
	if got := getTask(t, s, tk.ID).State; got != task.Open {
		t.Errorf("the task is %s, want open", got)
	}
	warned := false
	for _, e := range evs {
		warned = warned || e.Kind == Warning && strings.Contains(e.Summary, "no new task until the remote answers")
	}
	if !warned {
		t.Errorf("no warning about the remote among %+v", evs)
	}
}
