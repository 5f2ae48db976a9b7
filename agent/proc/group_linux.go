//go:build linux

package proc

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// sysProcAttr puts the child in a session and process group of its own,
// without a controlling terminal, or with tty (its fd 0) as one (unless it
// needs bh's terminal, whose group it stays in), and has the kernel
// signal it when bh dies, even by SIGKILL. (The signal comes when the
// thread that started the child ends; Go ends threads only with the
// process, unless a goroutine exits while locked to one.)
func sysProcAttr(terminal, tty bool) *syscall.SysProcAttr {
	if terminal {
		return &syscall.SysProcAttr{Pdeathsig: syscall.SIGHUP}
	}
	return &syscall.SysProcAttr{Setsid: true, Setctty: tty, Ctty: 0, Pdeathsig: syscall.SIGKILL}
}

// KillGroup kills with SIGKILL what is left of process group pgid, a
// child whose bh died: its leader dies with bh, the child's own children
// do not. Since the group id may have been reused since, it
// kills only a group one of whose processes still works in dir or below.
// It does nothing for pgid <= 1 or the caller's own group, and nothing on
// systems other than Linux.
func KillGroup(pgid int, dir string) error {
	if pgid <= 1 || pgid == syscall.Getpgrp() || dir == "" {
		return nil
	}
	if !groupWorksIn(pgid, dir) {
		return nil
	}
	if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return &os.SyscallError{Syscall: "kill", Err: err}
	}
	return nil
}

// groupWorksIn reports whether a live member of process group pgid has its
// working directory in dir or below.
func groupWorksIn(pgid int, dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	dirs := []string{abs}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		dirs = append(dirs, real)
	}
	ents, _ := os.ReadDir("/proc")
	for _, ent := range ents {
		if _, err := strconv.Atoi(ent.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", ent.Name(), "stat"))
		if err != nil || statPgrp(stat) != pgid {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", ent.Name(), "cwd"))
		if err != nil { // gone, a zombie, or not ours to read
			continue
		}
		if slices.ContainsFunc(dirs, func(d string) bool { return within(cwd, d) }) {
			return true
		}
	}
	return false
}

// statPgrp reads the process group id from /proc/<pid>/stat: the fifth
// field, counted after the command name, which is in parentheses and may
// itself hold spaces and parentheses. It returns -1 if there is none.
func statPgrp(stat []byte) int {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(string(stat[i+1:])) // state, ppid, pgrp, ...
	if len(f) < 3 {
		return -1
	}
	pgrp, err := strconv.Atoi(f[2])
	if err != nil {
		return -1
	}
	return pgrp
}

// within reports whether path is dir or below it; both are clean and absolute.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsAbs(path) && filepath.IsAbs(dir) &&
		rel != ".." && !strings.HasPrefix(rel, "../")
}
