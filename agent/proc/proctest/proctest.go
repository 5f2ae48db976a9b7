//go:build linux

// Package proctest holds what the tests of agent/proc and of agent share
// to watch the processes they start: a script with a child, waits on
// files, and whether a pid still runs. Tests only.
package proctest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// GroupAgent is a process with a child: each waits for the file "go",
// shows it saw it, and sleeps.
const GroupAgent = `sh -c 'while [ ! -e go ]; do sleep 0.01; done; touch child-ok; exec sleep 60' &
echo $! > child.tmp && mv child.tmp child.pid # whole, or not there: a reader never sees it half written
while [ ! -e go ]; do sleep 0.01; done; touch leader-ok
exec sleep 60
`

// WaitFor polls cond until it holds, failing the test once within passed.
func WaitFor(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(within); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

// Exists is a condition: dir/name exists.
func Exists(dir, name string) func() bool {
	return func() bool {
		_, err := os.Stat(filepath.Join(dir, name))
		return err == nil
	}
}

// Alive reports whether pid runs: it exists and is not a zombie.
func Alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err == nil && syscall.Kill(pid, 0) == nil && !strings.Contains(string(stat), ") Z ")
}

// ReadPid reads the pid a script wrote to file.
func ReadPid(t *testing.T, file string) int {
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

// Hang is a shell command that says it runs on the fifo in dir (made by
// Fifo; the test reads it with Started) and then hangs on it, with no
// child: nothing writes to it again. Its command line carries token, so
// that its processes (a sandbox's included) can be found from outside
// (Procs).
func Hang(dir, token string) string {
	fifo := filepath.Join(dir, "hang.fifo")
	return fmt.Sprintf(": %s; echo started > %s; read x < %s", token, fifo, fifo)
}

// Fifo makes a folder with the fifo Hang talks on.
func Fifo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "hang.fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Started waits until the Hang command of dir says it runs, or ended
// (its parent's end, say) is closed first.
func Started(t *testing.T, dir string, ended <-chan struct{}) {
	t.Helper()
	fifo := filepath.Join(dir, "hang.fifo")
	got := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(fifo) // the open waits for the command's
		got <- string(b)
	}()
	select {
	case s := <-got:
		if strings.TrimSpace(s) != "started" {
			t.Fatalf("the command said %q", s)
		}
	case <-ended:
		// Let the reader go: a writer that opens and closes at once.
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		t.Fatal("it ended before the command started")
	}
}

// Procs holds a pidfd of every process whose command line holds token,
// for WaitGone: immune to a pid's reuse. It fails the test if none runs.
func Procs(t *testing.T, token string) map[int]int {
	t.Helper()
	fds := map[int]int{}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte(token)) {
			continue
		}
		if fd, err := unix.PidfdOpen(pid, 0); err == nil {
			fds[pid] = fd
		}
	}
	if len(fds) == 0 {
		t.Fatalf("no process of %s runs", token)
	}
	t.Cleanup(func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	})
	return fds
}

// WaitGone waits, up to the test's own deadline, for every process of
// fds to have exited (a pidfd is readable once its process has ended),
// and fails naming one still alive (killed then).
func WaitGone(t *testing.T, fds map[int]int) {
	t.Helper()
	for pid, fd := range fds {
		timeout := -1
		if d, ok := t.Deadline(); ok {
			timeout = max(int(time.Until(d).Milliseconds())-5000, 0) // time left to report
		}
		pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(pfd, timeout)
		for err == unix.EINTR {
			n, err = unix.Poll(pfd, timeout)
		}
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			cmdline, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
			unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
			t.Fatalf("process %d (%s) outlived it", pid, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
		}
	}
}
