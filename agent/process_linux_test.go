//go:build linux

package agent

import (
	"bufio"
	"context"
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

// groupAgent is an agent with a child: each waits for the file "go",
// shows it saw it, and sleeps.
const groupAgent = `sh -c 'while [ ! -e go ]; do sleep 0.01; done; touch child-ok; exec sleep 60' &
echo $! > child.pid
while [ ! -e go ]; do sleep 0.01; done; touch leader-ok
exec sleep 60
`

// TestAgentDiesWithWorker kills a worker with SIGKILL, which it cannot
// catch: the agent dies with it, the agent's child does not, and
// KillGroup stops the child later from the process group id the worker
// printed.
func TestAgentDiesWithWorker(t *testing.T) {
	dir := t.TempDir()
	worker := exec.Command(os.Args[0], "-test.run=^$")
	worker.Env = append(os.Environ(), helperEnv+"="+groupAgent, helperDirEnv+"="+dir)
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
	waitFor(t, "the agent's child", exists(dir, "child.pid"))

	worker.Process.Kill()
	worker.Wait()
	waitFor(t, "the agent to die with its worker", func() bool { return !alive(pgid) })

	child := readPid(t, filepath.Join(dir, "child.pid"))
	if !alive(child) {
		t.Fatalf("the agent's child %d died with the worker; this test needs it left over", child)
	}
	if err := KillGroup(pgid, dir); err != nil {
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
	if want := readPid(t, filepath.Join(dir, "pid")); pgid != want {
		t.Errorf("Started got %d, want the agent's pid %d (it leads its group)", pgid, want)
	}
}

// waitFor polls cond until it holds, failing the test after 10 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(fakeapi.Patience(10 * time.Second)); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

func exists(dir, name string) func() bool {
	return func() bool {
		_, err := os.Stat(filepath.Join(dir, name))
		return err == nil
	}
}

// alive reports whether pid runs: it exists and is not a zombie.
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err == nil && syscall.Kill(pid, 0) == nil && !strings.Contains(string(stat), ") Z ")
}

func readPid(t *testing.T, file string) int {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}
