package config

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// DefaultTmpSize caps a sandbox's private /tmp, which lives in memory: an
// agent that fills it takes no more than this of the machine's RAM.
const DefaultTmpSize = 2 << 30

// tmpUnits are the suffixes sandbox.tmpSize takes, all powers of 1024.
var tmpUnits = []struct {
	suffix string
	shift  uint
}{{"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"G", 30}, {"M", 20}, {"K", 10}, {"", 0}}

// DefaultMemory and DefaultProcesses cap a run's processes together, and
// DefaultDiskSize its worktree: a runaway allocation, a fork bomb or a
// runaway download fails its own run, and the worker, the other runs and
// the machine go on.
const (
	DefaultMemory    = 8 << 30
	DefaultProcesses = 4096
	DefaultDiskSize  = 50 << 30
)

// TmpBytes is sandbox.tmpSize in bytes (default DefaultTmpSize); the
// config's check has refused what it cannot read.
func (c SandboxConfig) TmpBytes() int64 { return sizeOr(c.TmpSize, DefaultTmpSize) }

// Limits are sandbox.memory and sandbox.diskSize in bytes and
// sandbox.processes (defaults DefaultMemory, DefaultDiskSize,
// DefaultProcesses).
func (c SandboxConfig) Limits() (memory, disk int64, processes int) {
	return sizeOr(c.Memory, DefaultMemory), sizeOr(c.DiskSize, DefaultDiskSize), cmp.Or(c.Processes, DefaultProcesses)
}

// CheckSize reports a size (sandbox.tmpSize, memory, diskSize) bh cannot use.
func CheckSize(s string) error {
	_, err := ParseSize(s)
	return err
}

// CheckProcesses reports a sandbox.processes bh cannot use.
func (c SandboxConfig) CheckProcesses() error {
	if c.Processes < 0 {
		return fmt.Errorf("%d: want a number of processes, such as 4096", c.Processes)
	}
	return nil
}

func sizeOr(s string, def int64) int64 {
	n, err := ParseSize(s)
	if err != nil || n == 0 {
		return def
	}
	return n
}

// ParseSize reads a size such as 2GiB, 512MiB or a number of bytes; "" is 0.
func ParseSize(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	for _, u := range tmpUnits {
		num, ok := strings.CutSuffix(strings.TrimSpace(s), u.suffix)
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
		if err != nil || n <= 0 || n > 1<<(62-u.shift) {
			break
		}
		return n << u.shift, nil
	}
	return 0, fmt.Errorf("%q: want a size such as 2GiB, 512MiB or a number of bytes", s)
}
