package usertree

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/bh-tracker/bh/worker/git"
)

// Integrate brings branch up to theirs: a fast-forward when branch has
// nothing of its own, else its own commits rebased onto theirs (with
// objects only, see git.Repo.Replay, so the user's tree only ever moves
// once, and by git's safety checks, which refuse to touch a file the user
// changed). A rebase that conflicts changes nothing: *git.RebaseConflict.
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
	if err := r.notePending(branch, tip, rebased); err != nil {
		return fmt.Errorf("sync %s: %w", branch, err)
	}
	// As merge does: a file only touched since is not a change in the way.
	if _, err := r.Run(dir, git.Env("LC_ALL=C"), nil, "update-index", "--refresh"); err != nil && !git.IsExit(err, 1) {
		os.Remove(r.pendingFile())
		return err
	}
	if _, err := r.Run(dir, git.Env("LC_ALL=C"), nil, "read-tree", "-m", "-u", tip, rebased); err != nil {
		os.Remove(r.pendingFile()) // refused: the tree did not move
		if le := (*git.LockedError)(nil); errors.As(err, &le) {
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
