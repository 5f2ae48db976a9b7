//go:build linux

package proc

import (
	"bytes"
	"context"
	"errors"
	"github.com/bh-tracker/bh/agent/proc/proctest"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// holder starts a grandchild that holds stdout, writes its pid down, and
// then either waits (a long foreground step, like npm ci) or exits.
const holder = `sleep 1000 & echo $! > child.tmp && mv child.tmp child.pid; echo started; `

func TestRunCancelStopsGroup(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancelCause(context.Background())
	errStop := errors.New("second ctrl-c")
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, Cmd{Argv: []string{"sh", "-c", holder + "exec sleep 1000"}, Dir: dir, Stdout: &out,
			Grace: time.Minute})
		done <- err
	}()
	waitFor(t, "the grandchild", proctest.Exists(dir, "child.pid"))
	cancel(errStop)
	// The group takes SIGTERM at once: the minute's grace is never waited out.
	err := <-done
	var stopped *StoppedError
	if !errors.As(err, &stopped) || !errors.Is(err, errStop) || stopped.Timeout != 0 {
		t.Fatalf("Run = %v, want stopped by the context's cause", err)
	}
	assertDead(t, filepath.Join(dir, "child.pid"))
}

func TestRunTimeout(t *testing.T) {
	dir := t.TempDir()
	_, err := Run(context.Background(), Cmd{Argv: []string{"sh", "-c", holder + "exec sleep 1000"}, Dir: dir,
		Timeout: time.Millisecond})
	var stopped *StoppedError
	if !errors.As(err, &stopped) || stopped.Timeout != time.Millisecond || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Run = %v, want a timeout", err)
	}
}

// TestRunLeftoverHoldsPipe: the child exits while its grandchild holds
// stdout. Run returns after the grace, not when the grandchild would end,
// and the grandchild is killed.
func TestRunLeftoverHoldsPipe(t *testing.T) {
	dir := t.TempDir()
	res, err := Run(context.Background(), Cmd{Argv: []string{"sh", "-c", holder + "exit 3"}, Dir: dir,
		Stdout: &bytes.Buffer{}, Grace: 10 * time.Millisecond})
	if err != nil || res.ExitCode != 3 {
		t.Fatalf("Run = exit %d, %v; want exit 3", res.ExitCode, err)
	}
	assertDead(t, filepath.Join(dir, "child.pid"))
}

func TestRunTerminalStaysInGroup(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		// The child's process group (from /proc), against ours: the same.
		_, err := Run(ctx, Cmd{Argv: []string{"sh", "-c", "cut -d' ' -f5 /proc/$$/stat > pgid; exec sleep 1000"}, Dir: dir,
			Terminal: true})
		done <- err
	}()
	waitFor(t, "the child", func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "pgid"))
		return len(bytes.TrimSpace(b)) > 0
	})
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v, want cancelled", err)
	}
	if got, want := proctest.ReadPid(t, filepath.Join(dir, "pgid")), syscall.Getpgrp(); got != want {
		t.Errorf("child's group %d, want ours %d", got, want)
	}
}

func TestRunMissing(t *testing.T) {
	res, err := Run(context.Background(), Cmd{Argv: []string{filepath.Join(t.TempDir(), "nope")}})
	if err == nil || res.PID != 0 || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Run = %+v, %v; want not started", res, err)
	}
}

// doneLauncher runs the child as it is and counts its Done calls.
type doneLauncher struct{ done *int }

func (d doneLauncher) Launch(l Launch) (Launch, error) {
	l.Done = func() { *d.done++ }
	return l, nil
}

// TestRunLaunchDone: what a launcher started for a child (a sandbox's
// proxy) is ended once, after the child exits or when it cannot start.
func TestRunLaunchDone(t *testing.T) {
	var n int
	var out bytes.Buffer
	if _, err := Run(context.Background(), Cmd{Argv: []string{"sh", "-c", "echo ran"}, Stdout: &out, Launcher: doneLauncher{&n}}); err != nil || n != 1 || out.String() != "ran\n" {
		t.Errorf("after the child: Done %d times, %v, %q", n, err, out.String())
	}
	n = 0
	if _, err := Run(context.Background(), Cmd{Argv: []string{filepath.Join(t.TempDir(), "nope")}, Launcher: doneLauncher{&n}}); err == nil || n != 1 {
		t.Errorf("a child that cannot start: Done %d times, %v", n, err)
	}
}
