package usertree

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bh-tracker/bh/worker/git"
)

// A sync moves the user's tree (read-tree -m -u) and then the branch
// (update-ref): two steps. Killed between them, the tree holds the pulled
// files on the old commit, and every later pull is refused over those
// "uncommitted changes". So the sync notes both commits before it moves
// the tree, and the next sync finishes the move: finishIntegrate.

func (r *Tree) pendingFile() string { return filepath.Join(r.CommonDir(), "bh-sync-pending") }

func (r *Tree) notePending(branch, tip, rebased string) error {
	return os.WriteFile(r.pendingFile(), []byte(branch+" "+tip+" "+rebased+"\n"), 0o644)
}

// finishIntegrate completes a sync killed between moving the user's tree
// and its branch: when the branch is still on the old commit and the
// index holds the new commit's version of every path the sync changed,
// the branch moves there, as the sync would have. It reports whether it
// moved it; a note it cannot act on safely is dropped (nothing moved).
func (r *Tree) finishIntegrate() (bool, error) {
	b, err := os.ReadFile(r.pendingFile())
	if err != nil {
		return false, nil // none pending
	}
	f := strings.Fields(string(b))
	if len(f) != 3 {
		return false, os.Remove(r.pendingFile())
	}
	branch, tip, rebased := f[0], f[1], f[2]
	head, err := r.BranchTip(branch)
	if err != nil {
		return false, err
	}
	dir, err := r.checkoutOf(branch)
	if err != nil || dir == "" || head != tip {
		return false, cmp.Or(err, os.Remove(r.pendingFile())) // moved on since: nothing to finish
	}
	if !r.indexLetGo(dir) {
		return false, nil // a git still moves the tree: the next sync finishes
	}
	paths, err := r.ChangedPaths(tip, rebased)
	if err != nil {
		return false, err
	}
	// The index as the tree moved it: every path the sync changed as in
	// rebased (the user's own staged changes elsewhere are theirs).
	args := append([]string{"--no-optional-locks", "diff", "--cached", "--quiet", rebased, "--"}, paths...)
	if _, err := r.Run(dir, nil, nil, args...); err != nil {
		return false, os.Remove(r.pendingFile()) // the tree never moved (or the user changed those files): leave it
	}
	if _, err := r.Write(nil, "update-ref", "-m", "bh: sync (finished)", "refs/heads/"+branch, rebased, tip); err != nil {
		return false, fmt.Errorf("finish the killed sync of %s: %w", branch, err)
	}
	return true, os.Remove(r.pendingFile())
}

// indexLetGo waits for a git still at work in the tree at dir to let go
// of its index: a sync killed during its read-tree leaves that git moving
// the tree (bh never kills its git), and until it is done the index looks
// as if the tree never moved. false when it still holds it at the bound;
// a stale lock, its git dead, counts as let go.
func (r *Tree) indexLetGo(dir string) bool {
	gitDir, err := r.TreeGitDir(dir)
	if err != nil {
		return false
	}
	lock := filepath.Join(gitDir, "index.lock")
	var waited time.Duration
	for pause := git.FirstLockWait; ; pause = git.NextLockWait(pause) {
		if _, err := os.Lstat(lock); err != nil {
			return true
		}
		var le *git.LockedError
		if err := r.WaitLock(lock, waited, nil, []string{"read-tree"}); errors.As(err, &le) {
			return le.Stale
		}
		time.Sleep(pause)
		waited += pause
	}
}
