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
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(cmd.Main())
}
