package sandbox

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"syscall"
	"time"
)

// diskWatch bounds the disk a run's worktree takes: its size, in blocks
// actually used, is measured while the run goes on and a run whose
// worktree grew past the cap has passed it. A file system quota would
// bound it exactly, but needs a file system and mount options bh cannot
// assume; this is a measured bound, checked at most every
// diskEvery, or ten times as long as a measure took (a large tree is
// measured less often).
type diskWatch struct {
	dir  string
	max  int64
	next time.Time
}

const diskEvery = 5 * time.Second

// passed says whether the worktree is past its cap, measuring it when due
// or final.
func (d *diskWatch) passed(final bool) string {
	if !final && time.Now().Before(d.next) {
		return ""
	}
	start := time.Now()
	used := diskUsed(d.dir)
	d.next = time.Now().Add(max(diskEvery, 10*time.Since(start)))
	if used > d.max {
		return fmt.Sprintf("the run passed its disk cap (%d MiB in its worktree, %d MiB allowed)", used>>20, d.max>>20)
	}
	return ""
}

// diskUsed is the bytes the files under dir take on disk (sparse parts
// take none), without following links.
func diskUsed(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if fi, err := e.Info(); err == nil {
			if st, ok := fi.Sys().(*syscall.Stat_t); ok {
				n += st.Blocks * 512
			}
		}
		return nil
	})
	return n
}
