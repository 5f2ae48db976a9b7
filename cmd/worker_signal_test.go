//go:build linux

package cmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/bh-tracker/bh/agent/proc/proctest"
	"github.com/bh-tracker/bh/task"
)

// TestWorkerSignalEndsCheck: one SIGTERM, or one Ctrl-C, to bh worker
// while a task's check hangs ends the worker, and the check's processes
// (the sandbox's included) are gone with it; nothing lands, and the next
// start recovers the landing, checks again and lands.
func TestWorkerSignalEndsCheck(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			root := signalWorld(t)
			fifo := proctest.Fifo(t)
			token := "bh-check-" + strconv.Itoa(os.Getpid()) + "-" + sig.String()
			// The check hangs the first time only.
			check := "if [ ! -e " + fifo + "/ran ]; then touch " + fifo + "/ran; " + proctest.Hang(fifo, token) + "; fi"
			agentCmd := `echo done > file.txt; echo '{"status":"completed","summary":"wrote file.txt"}'`
			dir := filepath.Join(root, "repo")
			repoE2E(t, dir, "prefix: tm\nagent:\n  kind: command\n  command: [sh, -c, "+strconv.Quote(agentCmd)+"]\n"+
				"checks: ["+strconv.Quote(check)+"]\nsandbox:\n  writable: ["+strconv.Quote(fifo)+"]\n")
			id := strings.TrimSpace(bhE2E(t, dir, "add", "Write file.txt"))

			w, out, ended := startWorker(t, dir, fifo)
			procs := proctest.Procs(t, token)
			if err := w.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			<-ended // no bound but the test's own: the worker must end by itself
			if !w.ProcessState.Exited() {
				t.Fatalf("bh worker: %v\n%s", w.ProcessState, out.String())
			}
			proctest.WaitGone(t, procs)
			if got := bhTask(t, dir, id); got.State != task.InProgress || fileExists(dir, "file.txt") {
				t.Fatalf("after the signal the task is %s, file.txt landed %v", got.State, fileExists(dir, "file.txt"))
			}

			bhE2E(t, dir, "worker", "--once")
			if got := bhTask(t, dir, id); got.State != task.Closed || !fileExists(dir, "file.txt") {
				t.Fatalf("after a restart the task is %s, file.txt landed %v", got.State, fileExists(dir, "file.txt"))
			}
		})
	}
}

// signalWorld is a test's root folder, with bh and the fake agent on
// PATH and bh's state, config and home inside it.
func signalWorld(t *testing.T) string {
	root := t.TempDir()
	bin := binE2E(t, root)
	for k, v := range map[string]string{"PATH": bin + ":" + os.Getenv("PATH"),
		"XDG_STATE_HOME": filepath.Join(root, "state"), "XDG_CONFIG_HOME": filepath.Join(root, "config"),
		"GIT_CONFIG_NOSYSTEM": "1", "HOME": root} {
		t.Setenv(k, v)
	}
	return root
}

// startWorker starts bh worker in dir and returns once what it runs has
// started to hang on fifo; ended closes when the worker has exited.
func startWorker(t *testing.T, dir, fifo string) (w *exec.Cmd, out *bytes.Buffer, ended chan struct{}) {
	w, out = exec.Command("bh", "worker"), &bytes.Buffer{}
	w.Dir, w.Stdout, w.Stderr = dir, out, out
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	ended = make(chan struct{})
	go func() { w.Wait(); close(ended) }()
	proctest.Started(t, fifo, ended)
	return w, out, ended
}

func fileExists(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}

// TestWorkerSIGTERMStopsARunningAgent: SIGTERM is a supervisor's stop
// (systemd, Kubernetes), which comes with a deadline: bh worker does not
// wait for a running agent to finish its turn, as after a first Ctrl-C,
// but stops it at once, keeps its work and reopens the task; the next
// start runs it again.
func TestWorkerSIGTERMStopsARunningAgent(t *testing.T) {
	root := signalWorld(t)
	fifo := proctest.Fifo(t)
	token := "bh-agent-" + strconv.Itoa(os.Getpid())
	// The agent hangs the first time only.
	agentCmd := "if [ ! -e " + fifo + "/ran ]; then touch " + fifo + "/ran; " + proctest.Hang(fifo, token) + "; fi; " +
		`echo done > file.txt; echo '{"status":"completed","summary":"wrote file.txt"}'`
	dir := filepath.Join(root, "repo")
	repoE2E(t, dir, "prefix: tm\nagent:\n  kind: command\n  command: [sh, -c, "+strconv.Quote(agentCmd)+"]\n"+
		"sandbox:\n  writable: ["+strconv.Quote(fifo)+"]\n")
	id := strings.TrimSpace(bhE2E(t, dir, "add", "Write file.txt"))

	w, out, ended := startWorker(t, dir, fifo)
	procs := proctest.Procs(t, token)
	if err := w.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-ended // no bound but the test's own: the worker must end by itself, the agent still hanging
	if !w.ProcessState.Exited() {
		t.Fatalf("bh worker: %v\n%s", w.ProcessState, out.String())
	}
	proctest.WaitGone(t, procs)
	if got := bhTask(t, dir, id); got.State == task.InProgress || got.State == task.Closed {
		t.Fatalf("after SIGTERM the task is %s\n%s", got.State, out.String())
	}

	bhE2E(t, dir, "worker", "--once")
	if got := bhTask(t, dir, id); got.State != task.Closed || !fileExists(dir, "file.txt") {
		t.Fatalf("after a restart the task is %s, file.txt landed %v", got.State, fileExists(dir, "file.txt"))
	}
}
