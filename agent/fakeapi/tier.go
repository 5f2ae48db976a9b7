package fakeapi

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The suite has two tiers. `go test ./...` (CI's command) runs everything,
// the real claude and codex CLIs, tmux and Chromium included; a program it
// needs and lacks is installed or the test fails. `go test -short ./...`
// is the developers' loop: no npm, no real CLIs, long fault-point tests
// sampled. The rules of both live here, for every package's tests.

// Real skips t under -short, before anything is installed or started: it
// runs what, a real program. It never skips otherwise.
func Real(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short runs no real %s: go test ./... does", what)
	}
}

// Sampled says whether fault point n (from 1) of a long fault-injection
// test is tried: every one in the whole suite, one in ten under -short.
func Sampled(n int) bool { return !testing.Short() || n%10 == 1 }

// Patience scales d, a deadline for a real process (an agent run, a
// terminal's screen, a browser step, a subprocess to exit) chosen for an
// idle machine, to this one. Deadlines only bound failures; a pass never
// waits them out, so the scale errs on the long side.
func Patience(d time.Duration) time.Duration {
	return time.Duration(float64(d) * slowdown())
}

// slowdown is $BH_TEST_SLOWDOWN when set, else 2 on four cores or more,
// more on fewer, times the load per core when the machine is busy, at
// most 16.
var slowdown = sync.OnceValue(func() float64 {
	if s := os.Getenv("BH_TEST_SLOWDOWN"); s != "" {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f <= 0 {
			panic(fmt.Sprintf("BH_TEST_SLOWDOWN=%q: want a positive number", s))
		}
		return f
	}
	cpus := float64(runtime.NumCPU())
	f := max(2, 8/cpus)
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if load, err := strconv.ParseFloat(strings.Fields(string(b) + " x")[0], 64); err == nil {
			f *= max(1, load/cpus)
		}
	}
	return min(f, 16)
})
