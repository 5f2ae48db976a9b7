//go:build linux

package worker

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

// hangingCheck is a check that says it runs on the fifo in dir (which the
// test reads) and then hangs on it, with no child: nothing writes to it
// again. Its command line carries token, so that its processes (bwrap's
// included) can be found from outside the sandbox.
func hangingCheck(dir, token string) string {
	fifo := filepath.Join(dir, "check.fifo")
	return fmt.Sprintf(": %s; echo started > %s; read x < %s", token, fifo, fifo)
}

// checkFifo makes the fifo hangingCheck talks on, in a folder of its own
// that the sandbox lets the check write (sandbox.writable).
func checkFifo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "check.fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// checkStarted waits until the hanging check in dir says it runs, or the
// worker (ended) returns first.
func checkStarted(t *testing.T, dir string, ended <-chan struct{}) {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		// Opening for reading waits for the check to open it for writing.
		b, _ := os.ReadFile(filepath.Join(dir, "check.fifo"))
		got <- string(b)
	}()
	select {
	case s := <-got:
		if strings.TrimSpace(s) != "started" {
			t.Fatalf("the check said %q", s)
		}
	case <-ended:
		// Unblock the reader: a writer that opens and closes at once.
		if f, err := os.OpenFile(filepath.Join(dir, "check.fifo"), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		t.Fatal("the worker returned before its check started")
	}
}

// procsOf holds a pidfd of every process whose command line holds token:
// what waitGoneAll waits on, immune to a pid's reuse.
func procsOf(t *testing.T, token string) map[int]int {
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
		t.Fatalf("no process of the check (%s) runs", token)
	}
	t.Cleanup(func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	})
	return fds
}

// waitGoneAll waits, up to the test's own deadline, for every process of
// fds to have exited (a pidfd is readable once its process has ended),
// and fails naming those still alive.
func waitGoneAll(t *testing.T, fds map[int]int) {
	t.Helper()
	for pid, fd := range fds {
		timeout := -1
		if d, ok := t.Deadline(); ok {
			timeout = max(int(time.Until(d).Milliseconds())-5000, 0) // leave the test time to report
		}
		pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for {
			n, err := unix.Poll(pfd, timeout)
			if err == unix.EINTR {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				cmdline, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
				unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
				t.Fatalf("process %d (%s) outlived it", pid, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
			}
			break
		}
	}
}
