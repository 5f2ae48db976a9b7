package worker

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// limitsAgent forks without end, allocates past the memory cap, writes
// past the disk cap, or does its task, by the task's title in its prompt.
const limitsAgent = `p=$(cat)
case "$p" in
*"Fork bomb"*) b() { b | b; }; while :; do b; done ;;
*"Allocate"*) x=$(head -c 300000000 /dev/zero | tr '\0' a) ;;
*"Fill the disk"*) head -c 67108864 /dev/urandom >big ;;
esac
echo done >done.txt
echo '{"status":"completed","summary":"done"}'
`

// TestLimitsFailTheirOwnRun (issue 38): under -j 2, a fork bomb, an
// allocation past sandbox.memory and a worktree grown past
// sandbox.diskSize each end their own run with the limit it passed, and
// the worker and the other runs go on.
func TestLimitsFailTheirOwnRun(t *testing.T) {
	needBwrap(t)
	s := newStore(t)
	s.Config.Sandbox = config.SandboxConfig{Mode: task.SandboxRequired, Memory: "64MiB", Processes: 64, DiskSize: "16MiB"}
	s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c", limitsAgent}}
	bomb := addTask(t, s, "Fork bomb")
	alloc := addTask(t, s, "Allocate too much")
	disk := addTask(t, s, "Fill the disk")
	plain := addTask(t, s, "Plain work")
	runWith(t, s, Options{Jobs: 2})
	for _, tt := range []struct {
		id, want string
	}{
		{bomb.ID, "process cap (64 at once)"},
		{alloc.ID, "memory cap (64 MiB)"},
		{disk.ID, "disk cap ("},
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
