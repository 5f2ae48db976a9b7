package storegit

import (
	"os"
	"syscall"
	"time"
)

// changedAt is the last time f's file changed: its ctime, which a tool
// that restores mtimes (tar, rsync -a, touch) still moves on.
func changedAt(f os.FileInfo) time.Time {
	if st, ok := f.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctim.Unix())
	}
	return f.ModTime()
}
