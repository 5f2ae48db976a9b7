//go:build unix

package worker

import (
	"syscall"
	"time"
)

// cpuTime is the CPU (user and system) this process and its finished
// children (every git command) have used: a benchmark's figure that the
// machine's other load barely moves, unlike the wall clock.
func cpuTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total
}
