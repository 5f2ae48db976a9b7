package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bh-tracker/bh/worker/slots"
)

// checkPool tells the pool of warm worktrees as it is (its slots, which
// task holds which) and finds its strays: a slot still held by a closed
// or missing task (released as a stale worktree is removed: only when
// that loses nothing), a slot whose folder is gone, and a folder in the
// pool git does not know (a slot whose registration was lost, or one
// moved aside after a failed reset).
func (d *doctor) checkPool() error {
	list, err := slots.List(d.s, d.repo)
	if err != nil {
		return err
	}
	dir := slots.PoolDir(d.s, d.repo.CommonDir())
	known := map[string]bool{}
	var held []string
	free, clean := 0, true
	for _, e := range list {
		name := filepath.Base(e.Path)
		known[name] = true
		f := Finding{Check: "pool", Status: Warn, Subject: e.Path}
		if d.tampered("pool", e) {
			clean = false
			continue
		}
		switch {
		case e.Prunable:
			clean = false
			f.Message = "the pool slot " + name + " is registered, but its folder is gone"
			f.Fix = "prune its registration (git worktree prune)"
			d.guarded(f, func() error { return d.repo.RemoveWorktree(e.Path, "") })
		case e.Holder == "":
			free++
		default:
			if stale, why := d.closedOrMissing(e.Holder); stale {
				clean = false
				d.staleWorktree(f, e, e.Holder, why)
				continue
			}
			held = append(held, name+": "+e.Holder)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, ent := range entries {
		if known[ent.Name()] {
			continue
		}
		clean = false
		path := filepath.Join(dir, ent.Name())
		f := Finding{Check: "pool", Status: Warn, Subject: path,
			Message: "a folder in the worktree pool that git does not know as a worktree (its registration was lost, or it was moved aside)",
			Fix:     "remove it (rm -rf " + path + ")"}
		d.guarded(f, func() error { return os.RemoveAll(path) })
	}
	if clean {
		msg := fmt.Sprintf("%d slots in %s, %d free", len(list), dir, free)
		if len(held) > 0 {
			msg += "; held by " + strings.Join(held, ", ")
		}
		if !slots.On(d.s) {
			msg += " (worktree.pool is off: tasks get worktrees of their own)"
		}
		d.ok("pool", msg)
	}
	return nil
}
