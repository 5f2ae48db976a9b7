package worker

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// limitsAgent forks without end, allocates past the memory cap, or does
// its task, by the task's title in its prompt.
const limitsAgent = `p=$(cat)
case "$p" in
*"Fork bomb"*) b() { b | b & }; b; wait ;;
*"Allocate"*) x=$(head -c 300000000 /dev/zero | tr '\0' a) ;;
esac
echo done >done.txt
echo '{"status":"completed","summary":"done"}'
`

// TestLimitsFailTheirOwnRun (issue 38): under -j 2, a fork bomb and an
// allocation past sandbox.memory each end their own run with the limit
// it passed, and the worker and the other runs go on.
func TestLimitsFailTheirOwnRun(t *testing.T) {
	needBwrap(t)
	s := newStore(t)
	s.Config.Sandbox = config.SandboxConfig{Mode: task.SandboxRequired, Memory: "64MiB", Processes: 64}
	s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c", limitsAgent}}
	bomb := addTask(t, s, "Fork bomb")
	alloc := addTask(t, s, "Allocate too much")
	plain := addTask(t, s, "Plain work")
	runWith(t, s, Options{Jobs: 2})
	for _, tt := range []struct {
		id, want string
	}{
		{bomb.ID, "process cap (64 at once)"},
		{alloc.ID, "memory cap (64 MiB)"},
	} {
		got := getTask(t, s, tt.id)
		if got.State == task.Closed || !strings.Contains(got.Summary+strings.Join(got.Issues, " "), tt.want) {
			t.Errorf("%s: %s, %q %q; want a failed run that says %q", got.Title, got.State, got.Summary, got.Issues, tt.want)
		}
	}
	if got := getTask(t, s, plain.ID); got.State != task.Closed {
		t.Errorf("the plain task beside them: %s (%s)", got.State, got.Summary)
	}
}
