package git

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// freshSlot leaves in a pool slot's admin dir only what a fresh slot
// has: HEAD, the index (and a split index's shared file), git's commondir
// and gitdir, the HEAD's reflog, and the files named in keep. What
// an earlier task left goes: its per-worktree refs (refs/worktree/*,
// refs/bisect/*) and their logs, a config.worktree, hooks, info/ (a
// sparse checkout), the state of an operation, pseudo refs (ORIG_HEAD,
// FETCH_HEAD, AUTO_MERGE), bh's temporary indexes and the records an
// older bh kept here (see RecordsDir), and the locks of gits no longer
// running.
func freshSlot(path, admin string, keep ...string) error {
	running := gitIn([]string{path})
	entries, err := os.ReadDir(admin)
	if err != nil {
		return err
	}
	for _, e := range entries {
		n := e.Name()
		switch {
		case slices.Contains(keep, n) || slices.Contains([]string{"HEAD", "index", "commondir", "gitdir"}, n) ||
			strings.HasPrefix(n, "sharedindex."):
			continue
		case strings.HasSuffix(n, ".lock") && running:
			continue // a git's at work there (the user's own): its lock is its
		case n == "logs" && e.IsDir():
			if err := clearDir(filepath.Join(admin, n), "HEAD"); err != nil {
				return err
			}
			continue
		}
		if err := os.RemoveAll(filepath.Join(admin, n)); err != nil {
			return err
		}
	}
	return nil
}
