//go:build !linux

package proc

import "syscall"

// sysProcAttr puts the child in its own process group, unless it needs the terminal.
func sysProcAttr(terminal bool) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: !terminal} }

// KillGroup does nothing outside Linux, where bh cannot tell whether a
// process group is still the child's.
func KillGroup(pgid int, dir string) error { return nil }
