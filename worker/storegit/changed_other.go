//go:build !linux

package storegit

import (
	"os"
	"time"
)

// changedAt is the last time f's file changed, as far as portably known.
func changedAt(f os.FileInfo) time.Time { return f.ModTime() }
