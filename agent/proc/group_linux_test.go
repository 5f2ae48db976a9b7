//go:build linux

package proc

import (
	"context"
	"github.com/bh-tracker/bh/agent/proc/proctest"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

func TestKillGroup(t *testing.T) {
	dir := t.TempDir()
	pgids := make(chan int, 1)
	type ran struct {
		res Result
		err error
	}
	done := make(chan ran, 1)
	go func() {
		c := Cmd{Argv: []string{"/bin/sh", "-c", proctest.GroupAgent}, Dir: dir, Started: func(pgid int) { pgids <- pgid }}
		res, err := Run(context.Background(), c)
		done <- ran{res, err}
	}()
	pgid := <-pgids
	t.Cleanup(func() { syscall.Kill(-pgid, syscall.SIGKILL) })
	waitFor(t, "the agent's child", proctest.Exists(dir, "child.pid"))

	other := t.TempDir()
	link := filepath.Join(other, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		dir  string
		ours bool
	}{
		{dir, true},
		{filepath.Dir(dir), true},
		{link, true},
		{other, false},
		{dir + "x", false},
		{filepath.Join(dir, "sub"), false},
	} {
		if got := groupWorksIn(pgid, tt.dir); got != tt.ours {
			t.Errorf("groupWorksIn(%d, %s) = %v, want %v", pgid, tt.dir, got, tt.ours)
		}
	}

	// Another directory: nothing is killed, as both processes show by
	// answering after KillGroup returned.
	if err := KillGroup(pgid, other); err != nil {
		t.Fatalf("KillGroup in another directory: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the agent to go on", proctest.Exists(dir, "leader-ok"))
	waitFor(t, "the agent's child to go on", proctest.Exists(dir, "child-ok"))

	if err := KillGroup(pgid, dir); err != nil {
		t.Fatalf("KillGroup: %v", err)
	}
	select {
	case r := <-done:
		if r.err != nil || r.res.ExitCode != -1 {
			t.Errorf("run = exit %d, %v; want the agent killed by a signal", r.res.ExitCode, r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the agent still runs after KillGroup")
	}
	assertDead(t, filepath.Join(dir, "child.pid"))
}

func TestStatPgrp(t *testing.T) {
	for stat, want := range map[string]int{
		"123 (sleep) S 1 456 456 0 -1 4194560":     456,
		"123 (a) b (c) ) R 1 789 789 0 -1 4194560": 789,
		"123 (sleep) S 1":                          -1,
		"garbage":                                  -1,
	} {
		if got := statPgrp([]byte(stat)); got != want {
			t.Errorf("statPgrp(%q) = %d, want %d", stat, got, want)
		}
	}
}

func TestWithin(t *testing.T) {
	for _, tt := range []struct {
		path, dir string
		want      bool
	}{
		{"/a/b", "/a/b", true},
		{"/a/b/c/d", "/a/b", true},
		{"/a/bc", "/a/b", false},
		{"/a", "/a/b", false},
		{"/a/..b", "/a", true},
		{"/", "/", true},
		{"a/b", "a", false},
	} {
		if got := within(tt.path, tt.dir); got != tt.want {
			t.Errorf("within(%q, %q) = %v, want %v", tt.path, tt.dir, got, tt.want)
		}
	}
}

// assertDead waits for the process whose pid is in file to be gone.
func assertDead(t *testing.T, file string) {
	t.Helper()
	pid := proctest.ReadPid(t, file)
	waitFor(t, "process "+strconv.Itoa(pid)+" to die", func() bool { return !proctest.Alive(pid) })
}

// waitFor waits for cond within this package's bound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	proctest.WaitFor(t, time.Minute, what, cond)
}
