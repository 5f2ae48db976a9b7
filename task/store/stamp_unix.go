//go:build linux || darwin

package store

import "golang.org/x/sys/unix"

// statAt stamps a name relative to an open directory: fstatat spares the
// kernel a walk of the whole path for each of thousands of files.
func statAt(dirFd uintptr, _, name string) stamp {
	var st unix.Stat_t
	if err := unix.Fstatat(int(dirFd), name, &st, 0); err != nil {
		return gone
	}
	return fromStat(&st)
}

func fromStat(st *unix.Stat_t) stamp {
	return stamp{size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(), ino: uint64(st.Ino)}
}
