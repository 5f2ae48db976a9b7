//go:build linux || darwin

package store

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// readAt reads a name relative to an open directory into buf, grown as
// needed. os.ReadFile spends nine system calls a file (a path walk, poller
// checks, a stat); a first listing reads thousands, and this takes four.
func readAt(dirFd uintptr, dirPath, name string, buf []byte) ([]byte, error) {
	fd, err := unix.Openat(int(dirFd), name, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	for err == unix.EINTR {
		fd, err = unix.Openat(int(dirFd), name, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: filepath.Join(dirPath, name), Err: err}
	}
	defer unix.Close(fd)
	buf = buf[:cap(buf)]
	n := 0
	for {
		if n == len(buf) {
			buf = append(buf, make([]byte, max(4096, len(buf)))...)
		}
		m, err := unix.Read(fd, buf[n:])
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return nil, &os.PathError{Op: "read", Path: filepath.Join(dirPath, name), Err: err}
		case m == 0:
			return buf[:n], nil
		}
		n += m
	}
}
