//go:build unix

package worker

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/bh-tracker/bh/worker/doctor"
	"github.com/bh-tracker/bh/worker/slots"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
)

// helperKillReset runs a worker that SIGKILLs itself as the pool slot's
// reset is about to run the git step BH_KILL_AT (checkout or clean).
func helperKillReset() int {
	s, err := store.Find(".")
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	at := os.Getenv("BH_KILL_AT")
	pool := slots.RealDir(slots.PoolDir(s, mustOpen(s).CommonDir()))
	hooks := git.Hooks{Before: func(dir string, args []string) {
		for len(args) > 1 && args[0] == "-c" { // config given on the command line
			args = args[2:]
		}
		if len(args) > 0 && args[0] == at && slots.RealDir(filepath.Dir(dir)) == pool {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
	}}
	never := agent.RunnerFunc(func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		fmt.Println("error: the agent ran") // the kill never came: the test fails, never hangs
		return nil, &agent.RunError{Reason: "the agent ran", ExitCode: -1}
	})
	ctx := context.Background()
	if err := Run(ctx, ctx, s, Options{Runner: never, Once: true, GitHooks: hooks}); err != nil {
		fmt.Println("error:", err)
		return 1
	}
	return 0
}

func mustOpen(s *store.Store) *git.Repo {
	r, err := git.Open(s.Root)
	if err != nil {
		panic(err)
	}
	return r
}

// TestPoolSlotKilledMidReset: a worker killed while it resets a slot left
// by a failed task (before its checkout, or before its clean) leaves a
// slot that the next worker resets again: the task runs once, sees
// nothing of the slot's last task, and lands only its own work.
func TestPoolSlotKilledMidReset(t *testing.T) {
	t.Parallel()
	for _, at := range []string{"checkout", "clean"} {
		t.Run(at, func(t *testing.T) {
			s := newStore(t)
			junk := addTask(t, s, "Leaves junk")
			runWith(t, s, Options{Once: true, Runner: agent.RunnerFunc(step(map[string]string{"junk.txt": "junk\n"},
				agent.Result{Status: agent.StatusFailed, Summary: "gave up"}))})
			if got := getTask(t, s, junk.ID).State; got != task.Failed {
				t.Fatalf("the junk task is %s", got)
			}
			tk := addTask(t, s, "Runs after the kill")
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Dir = s.Root
			cmd.Env = append(os.Environ(), "BH_WORKER_HELPER=killreset", "BH_KILL_AT="+at)
			out, err := cmd.Output()
			if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
				t.Fatalf("the helper was not killed: %v: %s", err, out)
			}
			if got := getTask(t, s, tk.ID); got.State != task.InProgress {
				t.Fatalf("after the kill the task is %s", got.State)
			}

			var sawJunk bool
			f := &fake{steps: []stepFn{func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
				sawJunk = exists(req.Dir, "junk.txt")
				return step(map[string]string{"own.txt": "own\n"}, done("ran"))(ctx, req)
			}}}
			evs := runOnce(t, s, f)
			if len(evs) == 0 || evs[0].Kind != Recovered {
				t.Fatalf("events: %+v", evs)
			}
			if got := getTask(t, s, tk.ID).State; got != task.Closed || len(f.requests()) != 1 || sawJunk {
				t.Fatalf("after recovery: %s, %d runs, the last task's junk seen %v", got, len(f.requests()), sawJunk)
			}
			want := []string{".bh/tasks/" + tk.ID + ".yaml", "own.txt"}
			if c := committed(t, s.Root, "HEAD"); !slices.Equal(c, want) {
				t.Fatalf("landed %v, want %v", c, want)
			}
			for _, f := range doctorT(t, s, false).Findings {
				if f.Check == "pool" && f.Status != doctor.OK {
					t.Errorf("doctor after recovery: %+v", f)
				}
			}
		})
	}
}
