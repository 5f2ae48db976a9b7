package usertree

import (
	"strings"
)

// readTree moves the tree at dir and the index copy from tip to commit by
// git's two-tree merge, which refuses (touching nothing) over the user's
// changes and untracked files.
func (r *Tree) readTree(h *heldLanding) error {
	_, err := r.Run(h.dir, h.env(), nil, "read-tree", "-m", "-u", h.tip, h.commit)
	return err
}

// readTreeRefusal reads a refusal of git read-tree -m -u: the path in
// the way, and whether it is untracked or changed.
func readTreeRefusal(stderr string, h *heldLanding, taskPath string) *LandRefused {
	e := &LandRefused{Target: h.target, Dir: h.dir, Commit: h.commit,
		Reason: "your uncommitted changes touch files the landing changes"}
	for _, m := range inTheWayRe().FindAllStringSubmatch(stderr, -1) {
		if m[1] != "Entry" {
			e.Reason = "untracked or ignored files would be overwritten"
		}
		if m[2] != taskPath {
			e.Paths = append(e.Paths, m[2])
		}
	}
	if len(e.Paths) == 0 {
		e.Reason = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(strings.SplitN(stderr, "\n", 2)[0], "error: "), "fatal: "))
	}
	return e
}
