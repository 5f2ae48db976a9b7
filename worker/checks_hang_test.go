//go:build linux

package worker

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/agent/proc/proctest"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/slots"
)

// checkToken names one test's check processes in their command lines.
func checkToken(t *testing.T) string {
	return "bh-check-" + strconv.Itoa(os.Getpid()) + "-" + t.Name()
}

// TestCheckTimesOut: a check that hangs past checkTimeout is stopped and
// fails as a timeout, like any failing check: with checkRounds 1 the
// human is asked, and the check's output says that it timed out.
func TestCheckTimesOut(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Config.Checks, s.Config.CheckRounds, s.Config.CheckTimeout = []string{"echo testing; exec sleep infinity"}, 1, config.ParseDuration("2s")
	tk := addTask(t, s, "Hangs in its check")
	f := &fake{steps: []stepFn{step(map[string]string{"file.txt": "x\n"}, done("wrote it"))}}
	runWith(t, s, Options{Runner: f})
	got := getTask(t, s, tk.ID)
	if q := pendingOf(t, got); got.State != task.AwaitingInput || !ending.IsCheckQuestion(&q) {
		t.Fatalf("%s waiting on %+v, want the checks question", got.State, q)
	}
	evs := checkEvents(got)
	if len(evs) != 1 || evs[0].ExitCode != -1 || !strings.Contains(evs[0].Output, "testing") ||
		!strings.Contains(evs[0].Output, "timed out after 2s") {
		t.Fatalf("check events %+v, want one that timed out after 2s", evs)
	}
	if exists(s.Root, "file.txt") {
		t.Error("work whose check timed out landed")
	}
}

// TestStopEndsRunningCheck: bh stop while the task's check runs ends the
// check (its processes are gone) as it ends an agent: nothing lands, the
// work is parked and the task stays deferred, as the human set it.
func TestStopEndsRunningCheck(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	dir, token := proctest.Fifo(t), checkToken(t)
	s.Config.Checks = []string{proctest.Hang(dir, token)}
	s.Config.Sandbox.Writable = []string{dir}
	tk := addTask(t, s, "Stopped in its check")
	f := &fake{steps: []stepFn{step(map[string]string{"file.txt": "x\n"}, done("wrote it"))}}
	ctx, cancel := context.WithTimeout(context.Background(), fakeapi.Patience(time.Minute))
	defer cancel()
	ended, ret := make(chan struct{}), make(chan error, 1)
	go func() {
		defer close(ended)
		// The heartbeat is an hour away: the task file's change stops it.
		ret <- Run(ctx, ctx, s, Options{Runner: f, Once: true, Heartbeat: time.Hour})
	}()
	proctest.Started(t, dir, ended)
	procs := proctest.Procs(t, token)
	stopTask(t, s, tk.ID)
	<-ended
	if err := <-ret; err != nil {
		t.Fatalf("worker: %v", err)
	}
	proctest.WaitGone(t, procs)
	got := getTask(t, s, tk.ID)
	if got.State != task.Deferred || got.Lease != nil {
		t.Fatalf("stopped task: state %s lease %+v", got.State, got.Lease)
	}
	if e, ok := lastEvent(got, task.EventRunFinished); !ok || e.Status != string(ending.Stopped) {
		t.Fatalf("run.finished: %+v", e)
	}
	if exists(s.Root, "file.txt") || !refExists(s.Root, git.ParkRef(tk.ID)) {
		t.Fatal("the stopped task's work landed, or was not parked")
	}
}

// TestChecksInLandBranch: with land: branch the checks run before the
// work is kept on its branch, and a failing one goes back to the agent
// as in the default mode. bh land checks the tree it lands: a commit on
// the target that breaks a check stops it, and once that is undone it
// lands.
func TestChecksInLandBranch(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Config.Land = task.LandBranch
	s.Config.Checks = []string{fixedCheck, "! test -e block.txt"}
	tk := addTask(t, s, "Fixes file.txt on its branch")
	f := &fake{steps: []stepFn{
		step(map[string]string{"file.txt": "broken\n"}, done("wrote it")),
		step(map[string]string{"file.txt": "fixed\n"}, done("fixed it")),
	}}
	runWith(t, s, Options{Runner: f})
	got := getTask(t, s, tk.ID)
	if reqs := f.requests(); got.State != task.Closed || len(reqs) != 2 || !reqs[1].Resume ||
		!strings.Contains(reqs[1].Prompt, fixedCheck) {
		t.Fatalf("state %s (%s) after %d runs, want closed after a second run about the failed check",
			got.State, lastNote(got), len(f.requests()))
	}
	if evs := checkEvents(got); len(evs) != 3 || evs[0].ExitCode == 0 || evs[1].ExitCode != 0 || evs[2].ExitCode != 0 {
		t.Fatalf("check events %+v, want round 1 failing and round 2 passing", evs)
	}
	if exists(s.Root, "file.txt") || gitT(t, s.Root, "show", slots.Branch(tk.ID)+":file.txt") != "fixed" {
		t.Fatal("want the work kept on its branch, not landed")
	}

	writeFile(t, s.Root, "block.txt", "x\n")
	gitT(t, s.Root, "add", "block.txt")
	gitT(t, s.Root, "commit", "-q", "-m", "breaks the check")
	land := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), fakeapi.Patience(time.Minute))
		defer cancel()
		return landTask(ctx, s, tk.ID, "ann", Options{Name: "bh land"})
	}
	var nl *ending.NotLandedError
	if err := land(); !errors.As(err, &nl) || !strings.Contains(nl.Reason, "block.txt") {
		t.Fatalf("bh land: %v, want it refused by the failing check", err)
	}
	if exists(s.Root, "file.txt") {
		t.Fatal("bh land landed work whose check fails")
	}
	gitT(t, s.Root, "rm", "-q", "block.txt")
	gitT(t, s.Root, "commit", "-q", "-m", "unbreaks it")
	if err := land(); err != nil {
		t.Fatalf("bh land: %v", err)
	}
	if readFile(t, s.Root, "file.txt") != "fixed\n" {
		t.Fatal("bh land did not land the work")
	}
	evs := checkEvents(getTask(t, s, tk.ID))
	if n := len(evs); n != 3+2+2 || evs[4].ExitCode == 0 || evs[n-1].ExitCode != 0 || evs[n-1].By != "bh land" {
		t.Fatalf("check events %+v, want bh land's failing and passing rounds recorded", evs)
	}
}
