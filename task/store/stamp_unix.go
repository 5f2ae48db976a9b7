//go:build linux || darwin

package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// statAt stamps a name relative to an open directory: fstatat spares the
// kernel a walk of the whole path for each of thousands of files.
func statAt(dirFd uintptr, _, name string) stamp {
	var st unix.Stat_t
	if err := unix.Fstatat(int(dirFd), name, &st, 0); err != nil {
		return gone
	}
	return fromStat(&st)
}

// dirStamp stamps the open tasks folder. Adding, removing or renaming a
// file in it changes its mtime and ctime, so while its stamp holds, the
// cache's IDs are the folder's names, and listing need not read it.
func dirStamp(d *os.File) (stamp, bool) {
	var st unix.Stat_t
	if err := unix.Fstat(int(d.Fd()), &st); err != nil {
		return gone, false
	}
	return fromStat(&st), true
}

func fromStat(st *unix.Stat_t) stamp {
	return stamp{size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(), ino: uint64(st.Ino)}
}
