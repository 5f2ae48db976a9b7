package sandbox

import (
	"fmt"
	"os/exec"
	"strconv"
)

// Limits cap what one sandboxed child and everything it starts take from
// the machine together, so that a runaway allocation or a fork bomb
// fails its own run and the worker and the other runs go on. They are
// kept by a control group of the run's own, cgroup v2 where bh's cgroup
// delegates memory and pids, else v1's memory and pids hierarchies where
// bh may write them (root, or a delegated hierarchy); where neither is
// writable, processes are capped per user by RLIMIT_NPROC (prlimit, which
// the kernel does not enforce for root) and memory is not capped.
type Limits struct {
	Memory    int64 // bytes; 0: none
	Processes int   // at once; 0: none
	// Disk bounds the bytes Worktree takes on disk (disk.go); 0: none.
	Disk     int64
	Worktree string
}

// knob is one limit of a control group: the file that sets it, and the
// file and key that count the times it was hit.
type knob struct {
	controller, file, value, events, key, what string
}

func (l Limits) knobs(v2 bool) []knob {
	var ks []knob
	if l.Memory > 0 {
		k := knob{"memory", "memory.max", strconv.FormatInt(l.Memory, 10), "memory.events", "oom_kill",
			fmt.Sprintf("memory cap (%d MiB): a process was killed", l.Memory>>20)}
		if !v2 {
			k.file, k.events = "memory.limit_in_bytes", "memory.oom_control"
		}
		ks = append(ks, k)
	}
	if l.Processes > 0 {
		ks = append(ks, knob{"pids", "pids.max", strconv.Itoa(l.Processes), "pids.events", "max",
			fmt.Sprintf("process cap (%d at once)", l.Processes)})
	}
	return ks
}

// limitArgv starts argv under l: in a control group of its own, with
// what it passed and how to remove the group; or, where none can be
// made, with RLIMIT_NPROC set by prlimit(1) where it is installed. The
// worktree's disk is watched either way.
func limitArgv(l Limits, argv []string) (out []string, passed func(final bool) string, done func()) {
	out = argv
	var checks []func(final bool) string
	if c := openCgroup(l); c != nil {
		out, done = c.prelude(argv), c.remove
		checks = append(checks, func(bool) string { return c.passed() })
	} else if p, err := exec.LookPath("prlimit"); err == nil && l.Processes > 0 {
		n := strconv.Itoa(l.Processes)
		out = append([]string{p, "--nproc=" + n + ":" + n, "--"}, argv...)
	}
	if l.Disk > 0 && l.Worktree != "" {
		checks = append(checks, (&diskWatch{dir: l.Worktree, max: l.Disk}).passed)
	}
	if len(checks) == 0 {
		return out, nil, done
	}
	return out, func(final bool) string {
		for _, c := range checks {
			if why := c(final); why != "" {
				return why
			}
		}
		return ""
	}, done
}
