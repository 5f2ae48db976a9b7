//go:build linux

package worker

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

// TestSetupKilled: worktree.setup starts a grandchild that holds its
// stdout and then runs a long step, as npm ci would. Cancelling the
// worker's kill context stops both; the worker returns without an error,
// the task is open again, and no agent ran.
func TestSetupKilled(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tmp := t.TempDir()
	pidFile := filepath.Join(tmp, "grandchild.pid")
	s.Config.Worktree.Setup = "sleep 1000 & echo $! > " + pidFile + "; exec sleep 1000"
	// The grandchild is watched by its pid, which a sandbox's PID namespace
	// (and its private /tmp) would hide: there, its namespace dies with it.
	s.Config.Sandbox.Mode = task.SandboxOff
	tk := addTask(t, s, "needs an install")
	f := &fake{}
	kill, cancel := context.WithCancel(context.Background())
	defer cancel()
	ret := make(chan error, 1)
	go func() { ret <- Run(kill, kill, s, Options{Runner: f, Once: true}) }()
	pid := waitPid(t, pidFile)
	cancel()
	if err := <-ret; err != nil {
		t.Fatalf("worker: %v", err)
	}
	waitGone(t, pid)
	if got := getTask(t, s, tk.ID); got.State != task.Open || got.Lease != nil {
		t.Errorf("task %s, lease %v; want open again", got.State, got.Lease)
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("%d agent runs, want none", n)
	}
	if _, err := os.Stat(setupMark(s, tk.ID)); err == nil {
		t.Error("a stopped setup is marked done")
	}
}

// TestSetupOutputCapped: a setup that prints far more than the cap and
// fails keeps the head and end of its output in setup.log, and the
// task's failure quotes the end.
func TestSetupOutputCapped(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Config.Worktree.Setup = "head -c 3000000 /dev/zero | tr '\\0' x; echo; echo the install broke; exit 7"
	tk := addTask(t, s, "needs an install")
	runOnce(t, s, &fake{})
	got := getTask(t, s, tk.ID)
	note := got.History[len(got.History)-1].Text
	if got.State != task.Failed || !strings.Contains(note, "exit status 7") || !strings.Contains(note, "the install broke") {
		t.Fatalf("task %s, note %q; want failed quoting the setup's end", got.State, note)
	}
	log, err := os.ReadFile(store.RunDir(s, tk.ID, "setup.log"))
	if err != nil {
		t.Fatal(err)
	}
	if len(log) > setupOutput+100 || !strings.Contains(string(log), "bytes of output here") ||
		!strings.HasSuffix(string(log), "the install broke\n") {
		t.Errorf("setup.log holds %d bytes, ending %q; want it capped near %d", len(log), tail(log, 40), setupOutput)
	}
}

func waitPid(t *testing.T, file string) int {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(file); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pid in %s", file)
		}
	}
}

// waitGone waits for pid to be gone or a zombie.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if syscall.Kill(pid, 0) != nil || err == nil && strings.Contains(string(stat), ") Z ") {
			return
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("process %d outlived the worker", pid)
		}
	}
}
