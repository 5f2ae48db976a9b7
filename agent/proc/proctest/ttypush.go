//go:build linux

package proctest

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// PushInput is the terminal attack of issue 38: it pushes line into the
// input queue of every terminal it can name (its controlling terminal,
// its standard files, the console), byte by byte with TIOCSTI, also
// with the request's high bits set (which the kernel drops), and tries
// TIOCLINUX. It returns one line per attempt: what it tried and
// "pushed" or the error.
func PushInput(line string) []string {
	var out []string
	try := func(name string, fd int) {
		for _, req := range []uint64{unix.TIOCSTI, unix.TIOCSTI | 1<<32} {
			err := error(nil)
			for i := 0; i < len(line) && err == nil; i++ {
				err = ioctl(fd, req, uintptr(unsafe.Pointer(&[]byte(line)[i])))
			}
			out = append(out, fmt.Sprintf("%s tiocsti %#x: %s", name, req, result(err)))
		}
		sub := byte(6) // TIOCL_GETSHIFTSTATE: harmless, and refused like any other subcode
		out = append(out, fmt.Sprintf("%s tioclinux: %s", name, result(ioctl(fd, unix.TIOCLINUX, uintptr(unsafe.Pointer(&sub))))))
	}
	for _, path := range []string{"/dev/tty", "/dev/console"} {
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			out = append(out, fmt.Sprintf("%s open: %s", path, result(err)))
			continue
		}
		try(path, int(f.Fd()))
		f.Close()
	}
	for fd := range 3 {
		if _, err := unix.IoctlGetTermios(fd, unix.TCGETS); err != nil {
			out = append(out, fmt.Sprintf("fd %d: not a terminal", fd))
			continue
		}
		try(fmt.Sprintf("fd %d", fd), fd)
	}
	return out
}

func ioctl(fd int, req uint64, arg uintptr) error {
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(req), arg); e != 0 {
		return e
	}
	return nil
}

func result(err error) string {
	if err == nil {
		return "pushed"
	}
	return err.Error()
}
