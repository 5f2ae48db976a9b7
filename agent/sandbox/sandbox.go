// Package sandbox runs the processes of an agent's run (the agent, its
// children, worktree.setup) inside bubblewrap: the task's worktree and the
// agent's own state are writable, the system and the toolchains readable,
// the home empty but for what the run needs, the environment filtered, and the worker out of reach. It plugs into package proc as a
// proc.Launcher; DESIGN.md says how another runner would.
package sandbox

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/bh-tracker/bh/agent/proc"
)

// Policy is what a sandboxed child may see and do: the System folders and
// what it lists, nothing else. Everything not writable is read-only.
type Policy struct {
	Writable []string          // bound read-write: the worktree, its git dir, the agent's state, the run's caches
	Readable []string          // bound read-only: toolchains, the repository's git dir, the user's caches
	Hidden   []string          // an empty read-only folder (the home), or /dev/null for a file, in their place
	Files    map[string]string // bh's own files bound read-only elsewhere: path inside -> file outside
	Env      []string          // the variables kept: names, or prefixes ending in *
	SetEnv   []string          // variables set inside, over the kept ones (NAME=value): the run's own caches
	Egress   *Egress           // the way out to the network; nil: none, the namespace's own loopback alone
	// ReadOnly are files bound read-only over everything else, last: a
	// writable folder's files that only the runner may write (a worktree's
	// git files). A missing one is bound from an empty file.
	ReadOnly []string
	TmpSize  int64 // bytes of the private /tmp, kept in memory; 0: the kernel's default, half the RAM
	Limits   Limits
}

// Status says whether runs here can be sandboxed.
type Status struct {
	Bwrap string `json:"bwrap,omitempty"` // bubblewrap's path; "" when runs cannot be sandboxed
	Why   string `json:"why,omitempty"`   // why not
}

var (
	detectMu sync.Mutex
	detected = map[string]Status{} // by bwrap's path: a PATH without it is looked up again
)

// Detect finds bubblewrap on PATH and checks that it can make its
// namespaces here (a kernel or container may forbid unprivileged ones).
func Detect() Status {
	if runtime.GOOS != "linux" {
		return Status{Why: "bubblewrap sandboxes only on Linux, not " + runtime.GOOS}
	}
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return Status{Why: "bubblewrap (bwrap) is not installed or not on PATH"}
	}
	detectMu.Lock()
	defer detectMu.Unlock()
	if st, ok := detected[path]; ok {
		return st
	}
	st := Status{Bwrap: path}
	probe := []string{path, "--ro-bind", "/", "/", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net",
		"--die-with-parent", "--cap-drop", "ALL", "true"}
	proc.Starting(probe)
	out, err := exec.Command(probe[0], probe[1:]...).CombinedOutput()
	if err != nil {
		st = Status{Why: "bubblewrap cannot start here: " + firstLine(out, err)}
	}
	detected[path] = st
	return st
}

func firstLine(out []byte, err error) string {
	if line, _, _ := bytes.Cut(out, []byte("\n")); len(line) > 0 {
		return string(line)
	}
	return err.Error()
}

// real is p made absolute and clean, its symbolic links resolved where it
// exists, since bubblewrap mounts on real paths.
func real(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}

// exists reports whether p is there, and whether it is a folder.
func exists(p string) (ok, dir bool) {
	fi, err := os.Stat(p)
	if err != nil {
		return false, false
	}
	return true, fi.IsDir()
}

// Reading is p with the writable folders ps made read-only: a planning
// run's worktree and its git dir, which it may read but not change (a
// write there fails with EROFS). What else was writable stays so. The
// ReadOnly files inside them are read-only with them, and left out: bwrap
// could not make a missing one's mount point in a read-only folder.
func (p Policy) Reading(ps ...string) Policy {
	in := func(f string) bool {
		return slices.ContainsFunc(ps, func(d string) bool { return f == d || strings.HasPrefix(f, d+string(filepath.Separator)) })
	}
	p.Writable = slices.DeleteFunc(slices.Clone(p.Writable), func(w string) bool { return slices.Contains(ps, w) })
	p.Readable = append(slices.Clone(p.Readable), ps...)
	p.ReadOnly = slices.DeleteFunc(slices.Clone(p.ReadOnly), in)
	return p
}
