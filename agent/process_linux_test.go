//go:build linux

package agent

import (
	"bufio"
	"context"
	xproc "github.com/bh-tracker/bh/agent/proc"
	"github.com/bh-tracker/bh/agent/proc/proctest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
)

// TestAgentDiesWithWorker kills a worker with SIGKILL, which it cannot
// catch: the agent dies with it, the agent's child does not, and
// KillGroup stops the child later from the process group id the worker
// printed.
func TestAgentDiesWithWorker(t *testing.T) {
	dir := t.TempDir()
	worker := exec.Command(os.Args[0], "-test.run=^$")
	worker.Env = append(os.Environ(), helperEnv+"="+proctest.GroupAgent, helperDirEnv+"="+dir)
	worker.Stderr = os.Stderr
	stdout, err := worker.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := worker.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		worker.Process.Kill()
		worker.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	pgid, convErr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || convErr != nil {
		t.Fatalf("worker printed %q, %v; want the agent's process group id", line, err)
	}
	t.Cleanup(func() { syscall.Kill(-pgid, syscall.SIGKILL) })
	waitFor(t, "the agent's child", proctest.Exists(dir, "child.pid"))

	worker.Process.Kill()
	worker.Wait()
	waitFor(t, "the agent to die with its worker", func() bool { return !proctest.Alive(pgid) })

	child := proctest.ReadPid(t, filepath.Join(dir, "child.pid"))
	if !proctest.Alive(child) {
		t.Fatalf("the agent's child %d died with the worker; this test needs it left over", child)
	}
	if err := xproc.KillGroup(pgid, dir); err != nil {
		t.Fatalf("KillGroup: %v", err)
	}
	assertDead(t, filepath.Join(dir, "child.pid"))
}

func TestRequestStarted(t *testing.T) {
	dir := t.TempDir()
	agent := script(t, "echo $$ > pid\necho '{\"status\":\"completed\",\"summary\":\"s\"}'\n")
	pgid := 0
	_, err := NewCommand(CommandConfig{Argv: []string{agent}}).Run(context.Background(),
		Request{Dir: dir, Started: func(g int) { pgid = g }})
	if err != nil {
		t.Fatal(err)
	}
	if want := proctest.ReadPid(t, filepath.Join(dir, "pid")); pgid != want {
		t.Errorf("Started got %d, want the agent's pid %d (it leads its group)", pgid, want)
	}
}

// waitFor waits for cond within this package's bound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	proctest.WaitFor(t, fakeapi.Patience(10*time.Second), what, cond)
}
