package git

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// logRefs has git log the updates of the branches bh makes and rebases,
// whatever the repository's config says: their log is where loggedBase
// finds a fork point.
const logRefs = "core.logAllRefUpdates=true"

// forkPoint is where the worktree's branch forked: the base recorded with
// the worktree, else the one git's own reflog of the branch shows (see
// loggedBase, asked only then: it costs a git process); "" when neither
// says.
func (w *Worktree) forkPoint() string {
	if base := w.RecordedBase(); base != "" {
		return base
	}
	return w.repo.loggedBase(w.Branch)
}

// loggedBase reads branch's fork point from git's reflog of it, which git
// writes with the ref itself: the onto of its last rebase, else the
// commit it was created at. For a branch kept from an earlier attempt
// whose worktree's record went (a pool slot reset for it since, a kill
// while it was made): measured from its merge-base with a target that a
// sync rewrote since, the target's commits in between would count as the
// task's work. "" when the log does not reach back to either, or names a
// commit the branch no longer descends from.
func (r *Repo) loggedBase(branch string) string {
	data, err := os.ReadFile(filepath.Join(r.commonDir, "logs", "refs", "heads", filepath.FromSlash(branch)))
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	base := ""
	for i := len(lines) - 1; i >= 0 && base == ""; i-- {
		head, msg, _ := strings.Cut(lines[i], "\t")
		f := strings.Fields(head)
		if len(f) < 2 {
			continue
		}
		if onto, ok := strings.CutPrefix(msg, "rebase (finish): refs/heads/"+branch+" onto "); ok {
			base = strings.TrimSpace(onto)
		} else if f[0] == plumbing.ZeroHash.String() {
			base = f[1] // the branch's creation
		}
	}
	if !plumbing.IsHash(base) {
		return ""
	}
	if _, err := r.Read(nil, "merge-base", "--is-ancestor", base, "refs/heads/"+branch); err != nil {
		return ""
	}
	return base
}
