//go:build linux

// Package proctest holds what the tests of agent/proc and of agent share
// to watch the processes they start: a script with a child, waits on
// files, and whether a pid still runs. Tests only.
package proctest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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
