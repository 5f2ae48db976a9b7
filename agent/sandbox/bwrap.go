package sandbox

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/bh-tracker/bh/agent/proc"
)

// Bwrap launches children inside bubblewrap under Policy.
type Bwrap struct {
	Path   string // bwrap's binary
	Policy Policy
}

// Launch wraps l: bwrap's arguments, then l's own command line (behind
// the network's bridge), with the environment cut down to the policy's
// variables, under the seccomp filter (seccomp_linux.go).
func (b Bwrap) Launch(l proc.Launch) (proc.Launch, error) {
	args := b.Args(l)
	env := append(FilterEnv(l.Env, b.Policy.Env), b.Policy.SetEnv...)
	out := proc.Launch{Argv: l.Argv, Env: env, Dir: l.Dir, Terminal: l.Terminal}
	if b.Policy.Egress != nil {
		var err error
		if out, args, err = b.Policy.Egress.launch(args, out); err != nil {
			return l, err
		}
	}
	filter, err := seccompFile()
	if err != nil {
		if out.Done != nil {
			out.Done()
		}
		return l, fmt.Errorf("seccomp filter: %w", err)
	}
	if filter != nil {
		args = slices.Insert(args, len(args)-1, "--seccomp", strconv.Itoa(3+len(out.Files)))
		out.Files = append(out.Files, filter)
	}
	out.Argv = append(append([]string{b.Path}, args...), out.Argv...)
	var removeCgroup func()
	out.Argv, out.Limit, removeCgroup = limitArgv(b.Policy.Limits, out.Argv)
	if removeCgroup != nil {
		out.Done = proc.Then(out.Done, removeCgroup)
	}
	return out, nil
}

// Args are bwrap's arguments for l, up to and including "--": an empty
// root holding the System folders read-only, private /dev, /proc and /tmp
// (capped at the policy's TmpSize), then the policy's mounts from the
// shallowest path to the deepest, so that what is hidden inside a
// readable folder stays hidden and what is writable inside a hidden one
// is there, then bh's Files; last, the hidden folders and the root are
// made read-only, so that a write there fails as anywhere else.
func (b Bwrap) Args(l proc.Launch) []string {
	a := append(systemArgs(), "--dev", "/dev", "--proc", "/proc")
	a = append(a, tmpArgs(b.Path, b.Policy.TmpSize)...)
	a = append(a, "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net", "--die-with-parent", "--cap-drop", "ALL")
	if os.Geteuid() == 0 {
		// Mapping uid 0 into a user namespace takes CAP_SETFCAP: codex
		// sandboxes its commands in a namespace of its own. No new
		// privileges are gained through files (bwrap sets no_new_privs).
		a = append(a, "--cap-add", "CAP_SETFCAP")
	}
	ms, hidden := b.mounts(l)
	a = append(append(a, ms...), b.fileArgs()...)
	for _, h := range append(hidden, "/") {
		a = append(a, "--remount-ro", h)
	}
	if l.Dir != "" {
		a = append(a, "--chdir", real(l.Dir))
	}
	return append(a, "--")
}

func depth(p string) int { return strings.Count(p, "/") }

// paths are ps made real, without empties or repeats, in order.
func paths(ps []string) []string {
	var out []string
	for _, p := range ps {
		if p == "" {
			continue
		}
		if r := real(p); r != "" && r != "/" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// mounts are the policy's folders as bwrap's arguments, from the
// shallowest to the deepest, and the hidden ones (see Args).
func (b Bwrap) mounts(l proc.Launch) (a, hidden []string) {
	type mount struct {
		path string
		args []string // its bwrap arguments
	}
	var ms []mount
	for _, h := range paths(b.Policy.Hidden) {
		switch ok, dir := exists(h); {
		case ok && dir:
			ms = append(ms, mount{h, []string{"--tmpfs", h}})
		case ok: // a hidden file
			ms = append(ms, mount{h, []string{"--ro-bind", "/dev/null", h}})
		}
	}
	for _, r := range paths(append(slices.Clone(b.Policy.Readable), l.Readable...)) {
		ms = append(ms, mount{r, []string{"--ro-bind-try", r, r}})
	}
	for _, w := range paths(append(slices.Clone(b.Policy.Writable), l.Writable...)) {
		ms = append(ms, mount{w, []string{"--bind-try", w, w}})
	}
	slices.SortStableFunc(ms, func(x, y mount) int { return depth(x.path) - depth(y.path) })
	for _, m := range ms {
		a = append(a, m.args...)
		if m.args[0] == "--tmpfs" {
			hidden = append(hidden, m.path)
		}
	}
	return a, hidden
}

// fileArgs bind bh's Files, and the ReadOnly files over everything else.
func (b Bwrap) fileArgs() []string {
	var a []string
	for _, dst := range slices.Sorted(maps.Keys(b.Policy.Files)) {
		a = append(a, "--ro-bind", b.Policy.Files[dst], dst)
	}
	for _, f := range b.Policy.ReadOnly {
		f = filepath.Join(real(filepath.Dir(f)), filepath.Base(f)) // the file itself, not what a link names
		src := f
		if _, err := os.Lstat(f); err != nil {
			src = "/dev/null"
		}
		a = append(a, "--ro-bind", src, f)
	}
	return a
}
