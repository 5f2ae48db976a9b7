//go:build !linux

package agent

import "syscall"

// sysProcAttr puts the agent in its own process group.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// KillGroup does nothing outside Linux, where bh cannot tell whether a
// process group is still the agent's.
func KillGroup(pgid int, dir string) error { return nil }
