//go:build linux || darwin

package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps the first n bytes of f read-only, its pages filled at once:
// the page cache's own pages, where a read copies them into memory the
// kernel must first zero (two fifths of loading the list cache). The
// mapping is never undone, so only a process that exits soon may ask.
func mapFile(f *os.File, n int) ([]byte, bool) {
	if n <= 0 {
		return nil, false
	}
	b, err := unix.Mmap(int(f.Fd()), 0, n, unix.PROT_READ, unix.MAP_PRIVATE|mapPopulate)
	return b, err == nil
}
