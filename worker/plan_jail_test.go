package worker

import (
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
)

// writingPlanner is a command agent that ignores BH_PHASE: it writes a
// file in its worktree, then ends with a plan saying how the write went.
const writingPlanner = `err=$(sh -c 'echo too soon >early.txt' 2>&1 | tr -d '"\\')
printf '{"status":"completed","summary":"a plan","details":"1. cache it (the write: %s)"}\n' "${err:-done}"
`

// A planning run's agent has its worktree bound read-only in the sandbox:
// a command agent that ignores BH_PHASE cannot write there (EROFS), and
// its plan waits for approval with nothing changed. Unsandboxed, the same
// agent writes, and bh's check after the run refuses it, as it always did.
func TestPlanningRunCannotWriteInTheSandbox(t *testing.T) {
	needBwrap(t)
	for _, tt := range []struct {
		mode string
		want task.State
		says string // in the plan, or the failure's summary
	}{
		{task.SandboxRequired, task.AwaitingInput, "Read-only file system"},
		{task.SandboxOff, task.Failed, "refused: the planning run changed early.txt"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			s := newStore(t)
			s.Config.Sandbox = config.SandboxConfig{Mode: tt.mode}
			s.Config.Agent = config.AgentConfig{Kind: "command", Command: []string{"sh", "-c", writingPlanner}}
			yes := true
			tk, err := s.Create(&task.Task{Title: "Plan the cache", Plan: &yes})
			if err != nil {
				t.Fatal(err)
			}
			runWith(t, s, Options{Env: []string{"HOME=" + t.TempDir()}})
			got := getTask(t, s, tk.ID)
			said := got.Summary
			if tt.want == task.AwaitingInput && got.State == tt.want {
				said = planQuestion(t, got).Plan
			}
			if got.State != tt.want || !strings.Contains(said, tt.says) {
				t.Fatalf("%s: %q, want %s saying %q", got.State, said+got.Summary, tt.want, tt.says)
			}
			if exists(s.Root, "early.txt") {
				t.Errorf("the planning run's file landed")
			}
		})
	}
}

// takenOverClaude says in its session the permission mode it was given
// and whether it could write its worktree.
const takenOverClaude = askingClaude + `if (echo x >taken.txt) 2>/dev/null; then w=wrote; else w="could not write"; fi
echo "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"$mode, $w\"}}" >>"$c/projects/$slug/$sid.jsonl"
`

// A human takes over (bh continue) a session as it ran: one still planning
// in claude's plan mode with its worktree read-only in the sandbox, one
// that does not plan in the worker's permission mode, free to write.
func TestTakeoverOfAPlanningSession(t *testing.T) {
	needBwrap(t)
	for _, tt := range []struct {
		plan bool
		said string
	}{
		{true, "plan, could not write"},
		{false, "acceptEdits, wrote"},
	} {
		t.Run(map[bool]string{true: "planning", false: "not planning"}[tt.plan], func(t *testing.T) {
			s := newStore(t)
			tk := askedByClaude(t, s, takenOverClaude, &task.Task{Title: "Ask first", Plan: &tt.plan})
			taken, out, err := takeOver(s, tk.ID)
			if err != nil || len(taken.Said) != 1 || taken.Said[0] != tt.said {
				t.Fatalf("continue: %+v %v, want said %q\n%s", taken, err, tt.said, out)
			}
		})
	}
}
