package store

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

const hugePages = true

// adviseHuge asks for huge pages on a range of our own memory. It changes
// no data, and a kernel that refuses changes only the speed.
func adviseHuge(p unsafe.Pointer, n uintptr) {
	unix.Madvise(unsafe.Slice((*byte)(p), n), unix.MADV_HUGEPAGE)
}
