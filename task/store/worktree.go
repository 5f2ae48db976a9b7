package store

import (
	"os"
	"path/filepath"
	"strings"
)

// StoreMarker is a file in the private git dir of a task's worktree (bh
// writes it when it makes the worktree) that names the main tree. bh run
// inside the worktree, by the agent or a human, then acts on the main
// tree's store rather than on the .bh/ checked out there.
const StoreMarker = "bh-store"

// markedRoot returns the main tree named by d's worktree marker, if d is
// the top of a bh worktree.
func markedRoot(d string) (string, bool) {
	p := filepath.Join(d, ".git")
	if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
		return "", false // a directory (a main tree) or nothing: no marker (and no open of a folder)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", false
	}
	gitDir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
	if !ok {
		return "", false
	}
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(d, gitDir)
	}
	root, err := os.ReadFile(filepath.Join(gitDir, StoreMarker))
	if err != nil {
		return "", false
	}
	r := strings.TrimSpace(string(root))
	return r, r != ""
}
