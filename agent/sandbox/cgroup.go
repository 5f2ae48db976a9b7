package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// cgroup is one run's control group: its folder in each hierarchy.
type cgroup struct {
	dirs  []string
	knobs []knob
	dir   map[string]string // by controller
}

var cgroupSeq atomic.Int64

// openCgroup makes the run's control group under bh's own and sets l in
// it; nil where no hierarchy bh may write has the controllers.
func openCgroup(l Limits) *cgroup {
	hs := hierarchies()
	for _, v2 := range []bool{true, false} {
		c := &cgroup{knobs: l.knobs(v2), dir: map[string]string{}}
		if len(c.knobs) == 0 {
			return nil
		}
		if c.make(hs, v2) == nil {
			return c
		}
		c.remove()
	}
	return nil
}

func (c *cgroup) make(hs map[string]hierarchy, v2 bool) error {
	name := fmt.Sprintf("bh-%d-%d", os.Getpid(), cgroupSeq.Add(1))
	for _, k := range c.knobs {
		h, ok := hs[k.controller]
		if !ok || h.v2 != v2 {
			return errors.New("no hierarchy")
		}
		dir := filepath.Join(h.dir, name)
		if _, made := c.dir[k.controller]; !made {
			if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
				return err
			}
			if !slices.Contains(c.dirs, dir) {
				c.dirs = append(c.dirs, dir)
			}
			c.dir[k.controller] = dir
		}
		if err := os.WriteFile(filepath.Join(dir, k.file), []byte(k.value), 0); err != nil {
			return err
		}
		if k.controller == "memory" && !v2 { // swap counts too, where the kernel accounts it
			_ = os.WriteFile(filepath.Join(dir, "memory.memsw.limit_in_bytes"), []byte(k.value), 0)
		}
	}
	return nil
}

// prelude is what starts argv inside the control group: a shell that
// moves itself in, then becomes argv.
func (c *cgroup) prelude(argv []string) []string {
	out := []string{"/bin/sh", "-c", CgroupStep, "sh"}
	for _, d := range c.dirs {
		out = append(out, filepath.Join(d, "cgroup.procs"))
	}
	return append(append(out, "--"), argv...)
}

// CgroupStep is the shell bh starts bubblewrap through where it caps a
// run by a control group: it writes its own pid into the group's
// cgroup.procs files, its arguments up to "--", then becomes bwrap, so
// that the run's first process is in the group before it forks.
const CgroupStep = `while [ "$1" != -- ]; do echo $$ >"$1" || exit 125; shift; done; shift; exec "$@"`

// passed says which limit the run passed, or "".
func (c *cgroup) passed() string {
	for _, k := range c.knobs {
		b, _ := os.ReadFile(filepath.Join(c.dir[k.controller], k.events))
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[0] == k.key && f[1] != "0" {
				return "the run passed its " + k.what
			}
		}
	}
	return ""
}

// remove deletes the run's folders once its processes are gone (the
// kernel empties a control group a moment after they exit).
func (c *cgroup) remove() {
	for _, d := range c.dirs {
		for i := 0; i < 100; i++ { // a second at most
			if err := os.Remove(d); err == nil || errors.Is(err, os.ErrNotExist) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// hierarchy is where bh's own control group is for one controller.
type hierarchy struct {
	dir string
	v2  bool
}

// hierarchies are bh's own control groups by controller (memory, pids):
// v2's where its cgroup.subtree_control enables them, v1's otherwise.
func hierarchies() map[string]hierarchy {
	own := map[string]string{} // by controller ("" for v2): bh's path
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return nil
	}
	defer f.Close()
	for s := bufio.NewScanner(f); s.Scan(); {
		parts := strings.SplitN(s.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		for _, ctl := range strings.Split(parts[1], ",") {
			own[ctl] = parts[2]
		}
	}
	out := map[string]hierarchy{}
	for _, m := range cgroupMounts() {
		if m.v2 {
			path, ok := own[""]
			if !ok {
				continue
			}
			dir := filepath.Join(m.dir, path)
			enabled, _ := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
			for _, ctl := range strings.Fields(string(enabled)) {
				out[ctl] = hierarchy{dir, true}
			}
			continue
		}
		for _, ctl := range m.controllers {
			if path, ok := own[ctl]; ok {
				if _, v2 := out[ctl]; !v2 {
					out[ctl] = hierarchy{filepath.Join(m.dir, path), false}
				}
			}
		}
	}
	return out
}

type cgroupMount struct {
	dir         string
	v2          bool
	controllers []string
}

// cgroupMounts are the cgroup file systems mounted here, v2's first.
func cgroupMounts() []cgroupMount {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	var v1, v2 []cgroupMount
	for _, line := range strings.Split(string(b), "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		f, g := strings.Fields(pre), strings.Fields(post)
		if !ok || len(f) < 5 || len(g) < 3 {
			continue
		}
		switch g[0] {
		case "cgroup2":
			v2 = append(v2, cgroupMount{dir: f[4], v2: true})
		case "cgroup":
			v1 = append(v1, cgroupMount{dir: f[4], controllers: strings.Split(g[2], ",")})
		}
	}
	return append(v2, v1...)
}
