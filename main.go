// Command bh is a git-native task tracker for AI coding agents.
package main

import (
	"os"
	"runtime/debug"

	"github.com/bh-tracker/bh/cmd"
)

func main() {
	// Most bh processes live for tens of milliseconds and allocate what
	// they read (10k task records for a listing) all at once: at Go's
	// default GOGC of 100 the collector runs several times for garbage
	// that dies at exit anyway. At 400, bh list at 10k tasks costs 38-46
	// ms of CPU instead of 56-84 (perf stat -r 8, interleaved, quiet
	// machine), which is what keeps it under a tenth of dstask's
	// (task/store/bench/dstask.sh). GOGC in the environment still wins.
	// The reading commands that list many tasks (bh list at 10k) run with
	// no collector at all, as they did before 988671c's successors: 10 %
	// less CPU again (BenchmarkVsRelease). The memory limit still bounds
	// them, and a listing that parses thousands of files (a clone's first)
	// turns the collector back on while it does (store.parseMissing).
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
		if cmd.OneShot(os.Args[1:]) && os.Getenv("GOMEMLIMIT") == "" {
			debug.SetGCPercent(-1)
			debug.SetMemoryLimit(1 << 30)
		}
	}
	os.Exit(cmd.Main())
}
