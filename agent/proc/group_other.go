//go:build !linux

package proc

import "syscall"

// sysProcAttr puts the child in a session of its own, unless it needs the
// terminal, with tty (its fd 0) as its controlling terminal if set.
func sysProcAttr(terminal, tty bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: !terminal, Setctty: tty}
}

// KillGroup does nothing outside Linux, where bh cannot tell whether a
// process group is still the child's.
func KillGroup(pgid int, dir string) error { return nil }
