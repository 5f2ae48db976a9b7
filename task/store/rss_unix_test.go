//go:build linux || darwin

package store

import (
	"os"
	"runtime"
	"syscall"
)

func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return ru.Maxrss // bytes there, KiB on Linux
	}
	return ru.Maxrss << 10
}
