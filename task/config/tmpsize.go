package config

import (
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

// TmpBytes is sandbox.tmpSize in bytes (default DefaultTmpSize); the
// config's check has refused what it cannot read.
func (c SandboxConfig) TmpBytes() int64 {
	n, err := parseTmpSize(c.TmpSize)
	if err != nil || n == 0 {
		return DefaultTmpSize
	}
	return n
}

// CheckTmpSize reports a sandbox.tmpSize bh cannot use.
func (c SandboxConfig) CheckTmpSize() error {
	_, err := parseTmpSize(c.TmpSize)
	return err
}

func parseTmpSize(s string) (int64, error) {
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
