package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/proc"
)

// TestLimitsEndTheirOwnRun: a fork bomb and an allocation past the
// memory cap each end with the limit they passed (a bomb whose shells
// gave up may exit by itself first), and the control group is gone
// afterwards.
func TestLimitsEndTheirOwnRun(t *testing.T) {
	bwrap := needBwrap(t)
	c := openCgroup(Limits{Processes: 8})
	if c == nil {
		t.Skip("no control group can be made here: processes are capped per user by RLIMIT_NPROC alone")
	}
	c.remove()
	b := Bwrap{Path: bwrap, Policy: Policy{Env: DefaultEnv, Limits: Limits{Memory: 64 << 20, Processes: 32}}}
	for _, tt := range []struct{ name, script, want string }{
		{"fork bomb", `b() { b | b; }; while :; do b; done`, "the run passed its process cap (32 at once)"},
		{"allocation", `x=$(head -c 200000000 /dev/zero | tr '\0' a); echo survived`, "the run passed its memory cap (64 MiB)"},
	} {
		var out strings.Builder
		res, err := proc.Run(context.Background(), proc.Cmd{Argv: []string{"sh", "-c", tt.script}, Launcher: b, Stdout: &out, Stderr: &out, Grace: 1})
		why := res.Limit
		var stopped *proc.StoppedError
		if errors.As(err, &stopped) {
			why = stopped.Limit
		} else if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !strings.HasPrefix(why, tt.want) {
			t.Errorf("%s: exit %d, limit %q, want %q; output:\n%.300s", tt.name, res.ExitCode, why, tt.want, out.String())
		}
	}
	ents, _ := os.ReadDir("/sys/fs/cgroup/pids")
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), fmt.Sprintf("bh-%d-", os.Getpid())) {
			t.Errorf("the run's control group is left: %s", e.Name())
		}
	}
}
