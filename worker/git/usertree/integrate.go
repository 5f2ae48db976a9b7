package usertree

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/bh-tracker/bh/worker/git"
)

// Integrate brings branch up to theirs: a fast-forward when branch has
// nothing of its own, else its own commits replayed onto theirs with
// objects only (git.Repo.Replay), so that the user's tree moves once, by
// git's safety checks, which refuse to touch a file the user changed. A
// rebase that conflicts changes nothing: *git.RebaseConflict.
func (r *Tree) Integrate(branch, theirs string) error {
	tip, err := r.BranchTip(branch)
	if err != nil {
		return err
	}
	ours, behind, err := r.Ahead(tip, theirs)
	if err != nil || behind == 0 {
		return err
	}
	if ours == 0 {
		return r.Land(branch, theirs, "")
	}
	rebased, err := r.Replay(tip, theirs)
	if err != nil {
		return err
	}
	dir, err := r.checkoutOf(branch)
	if err != nil {
		return err
	}
	if dir == "" {
		return r.moveBranch(branch, rebased, tip)
	}
	if tip, rebased, err = r.catchUpWithUser(dir, tip, rebased, theirs); err != nil {
		return err
	}
	// What git checkout does: a two-tree merge that carries the user's
	// staged and unstaged changes along and refuses to overwrite any.
	if err := os.WriteFile(r.pendingFile(), []byte(branch+" "+tip+" "+rebased+"\n"), 0o644); err != nil {
		return fmt.Errorf("sync %s: %w", branch, err)
	}
	// As merge does: a file only touched since is not a change in the way.
	if _, err := r.Run(dir, git.Env("LC_ALL=C"), nil, "update-index", "--refresh"); err != nil && !git.IsExit(err, 1) {
		os.Remove(r.pendingFile())
		return err
	}
	if _, err := r.Run(dir, git.Env("LC_ALL=C"), nil, "read-tree", "-m", "-u", tip, rebased); err != nil {
		os.Remove(r.pendingFile()) // refused: the tree did not move
		if _, ok := errors.AsType[*git.LockedError](err); ok {
			return err
		}
		return &LandRefused{Target: branch, Dir: dir, Reason: "your uncommitted changes touch files the pull changes" +
			notUpToDate(err) + ": commit or stash them, then bh sync again"}
	}
	if _, err := r.Write(nil, "update-ref", "-m", "bh: sync", "refs/heads/"+branch, rebased, tip); err != nil {
		return fmt.Errorf("sync %s: %w", branch, err)
	}
	return os.Remove(r.pendingFile())
}

// catchUpWithUser replays the commits the user made in dir while the sync
// replayed tip's (a few at a time, so that even a user who commits faster
// than a whole replay takes is caught up with), until their HEAD holds
// still: the tip and replayed commit to move the tree between.
// ErrTargetMoved when it does not, or moved elsewhere than on top.
func (r *Tree) catchUpWithUser(dir, tip, rebased, theirs string) (string, string, error) {
	for tries := 0; ; tries++ {
		out, err := r.Run(dir, git.Env("LC_ALL=C"), nil, "rev-parse", "HEAD")
		head := strings.TrimSpace(string(out))
		if err != nil || head == tip {
			return tip, rebased, err
		}
		if tries == 10 {
			return "", "", ErrTargetMoved // the next sync rebases again
		}
		if _, err := r.Read(nil, "merge-base", "--is-ancestor", tip, head); err != nil {
			return "", "", ErrTargetMoved
		}
		if rebased, err = r.ReplayOnto(rebased, theirs, tip+".."+head); err != nil {
			return "", "", err
		}
		tip = head
	}
}

// notUpToDate names the files git's two-tree merge refused over (its
// "Entry 'x' not uptodate"), as " (x, y)"; "" when it named none.
func notUpToDate(err error) string {
	stderr, _ := git.Stderr(err)
	var paths []string
	for _, m := range inTheWayRe().FindAllStringSubmatch(stderr, -1) {
		if m[1] == "Entry" && len(paths) < 5 {
			paths = append(paths, m[2])
		}
	}
	if len(paths) == 0 {
		return ""
	}
	return " (" + strings.Join(paths, ", ") + ")"
}

// inTheWayRe reads the paths git's two-tree merge refuses over: changed
// ("Entry") or untracked. Compiled on first use, not in every bh's init.
var inTheWayRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(Entry|Untracked working tree file) '([^'\n]+)' (?:not uptodate|would be overwritten)`)
})

// A sync moves the user's tree (read-tree -m -u) and then the branch
// (update-ref): two steps. Killed between them, the tree holds the pulled
// files on the old commit, and every later pull is refused over those
// "uncommitted changes". So the sync notes both commits before it moves
// the tree, and the next sync finishes the move: finishIntegrate.

func (r *Tree) pendingFile() string { return filepath.Join(r.CommonDir(), "bh-sync-pending") }

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
		if le, ok := errors.AsType[*git.LockedError](r.WaitLock(lock, waited, nil, []string{"read-tree"})); ok {
			return le.Stale
		}
		time.Sleep(pause)
		waited += pause
	}
}
