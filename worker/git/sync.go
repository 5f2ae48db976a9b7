package git

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// CommitStore commits what changed under dir (bh's store, .bh) on the
// branch checked out in the main tree, and nothing else: the user's other
// changes, staged or not, stay as they are. false when nothing changed.
// Hooks are skipped: this is bh's bookkeeping, not the user's work.
func (r *Repo) CommitStore(dir, message string) (bool, error) {
	changed, err := r.StoreChanges(dir)
	if err != nil || len(changed) == 0 {
		return false, err
	}
	if _, err := r.git(nil, "add", "-A", "--", dir); err != nil {
		return false, fmt.Errorf("stage %s: %w", dir, err)
	}
	// With a pathspec, commit takes only those paths (--only), leaving
	// whatever else the user staged staged.
	if _, err := r.git([]byte(message), "commit", "-q", "--no-verify", "-F", "-", "--", dir); err != nil {
		return false, fmt.Errorf("commit %s: %w", dir, err)
	}
	return true, nil
}

// StoreChanges lists what is uncommitted under dir (bh's store): git's
// porcelain status lines, untracked files each on its own.
func (r *Repo) StoreChanges(dir string) ([]string, error) {
	out, err := r.read(nil, "status", "--porcelain", "-z", "--untracked-files=all", "--no-renames", "--", dir)
	if err != nil {
		return nil, err
	}
	return splitNul(out), nil
}

// Ahead counts the commits of a not in b, and of b not in a; with no b,
// every commit of a.
func (r *Repo) Ahead(a, b string) (int, int, error) {
	if b == "" {
		out, err := r.read(nil, "rev-list", "--count", a)
		if err != nil {
			return 0, 0, err
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(out)))
		return n, 0, err
	}
	out, err := r.read(nil, "rev-list", "--left-right", "--count", a+"..."+b)
	if err != nil {
		return 0, 0, err
	}
	var x, y int
	if _, err := fmt.Sscan(string(out), &x, &y); err != nil {
		return 0, 0, fmt.Errorf("rev-list: %q: %w", out, err)
	}
	return x, y, nil
}

// Integrate brings branch up to theirs: a fast-forward when branch has
// nothing of its own, else its own commits rebased onto theirs (with
// objects only, see replay, so the user's tree only ever moves once, and
// by git's safety checks, which refuse to touch a file the user changed).
// A rebase that conflicts changes nothing: *RebaseConflict.
func (r *Repo) Integrate(branch, theirs string) error {
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
	rebased, err := r.replay(tip, theirs)
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
	if _, err := r.runGit(dir, gitEnv("LC_ALL=C"), nil, "read-tree", "-m", "-u", tip, rebased); err != nil {
		os.Remove(r.pendingFile()) // refused: the tree did not move
		if le := (*LockedError)(nil); errors.As(err, &le) {
			return err
		}
		return &LandRefused{Target: branch, Dir: dir, Reason: "your uncommitted changes touch files the pull changes" +
			notUpToDate(err) + ": commit or stash them, then bh sync again"}
	}
	if _, err := r.git(nil, "update-ref", "-m", "bh: sync", "refs/heads/"+branch, rebased, tip); err != nil {
		return fmt.Errorf("sync %s: %w", branch, err)
	}
	return os.Remove(r.pendingFile())
}

// catchUpWithUser replays the commits the user made in dir while the sync
// replayed tip's (a few at a time, so that even a user who commits faster
// than a whole replay takes is caught up with), until their HEAD holds
// still: the tip and replayed commit to move the tree between.
// ErrTargetMoved when it does not, or moved elsewhere than on top.
func (r *Repo) catchUpWithUser(dir, tip, rebased, theirs string) (string, string, error) {
	for tries := 0; ; tries++ {
		out, err := r.runGit(dir, gitEnv("LC_ALL=C"), nil, "rev-parse", "HEAD")
		head := strings.TrimSpace(string(out))
		if err != nil || head == tip {
			return tip, rebased, err
		}
		if tries == 10 {
			return "", "", ErrTargetMoved // the next sync rebases again
		}
		if _, err := r.read(nil, "merge-base", "--is-ancestor", tip, head); err != nil {
			return "", "", ErrTargetMoved
		}
		if rebased, err = r.replayOnto(rebased, theirs, tip+".."+head); err != nil {
			return "", "", err
		}
		tip = head
	}
}

// RegisterMergeDriver defines, in the repository's config, the merge
// driver that .bh/.gitattributes names for task files. A fresh clone lacks
// it until bh init or bh sync runs there.
func (r *Repo) RegisterMergeDriver(name string) error {
	for _, kv := range [][2]string{
		{"merge." + name + ".name", "bh task files, field by field"},
		{"merge." + name + ".driver", "bh merge-file %O %A %B %P"},
	} {
		// Read first: writing takes config.lock, which every sync would
		// otherwise wait on, and the user's config is left alone.
		if out, err := r.read(nil, "config", "--get", kv[0]); err == nil && strings.TrimSpace(string(out)) == kv[1] {
			continue
		}
		if _, err := r.git(nil, "config", kv[0], kv[1]); err != nil {
			return fmt.Errorf("register the merge driver: %w", err)
		}
	}
	return nil
}

// notUpToDate names the files git's two-tree merge refused over (its
// "Entry 'x' not uptodate"), as " (x, y)"; "" when it named none.
func notUpToDate(err error) string {
	var ge *gitError
	if !errors.As(err, &ge) {
		return ""
	}
	var paths []string
	for _, m := range notUpToDateRe().FindAllStringSubmatch(ge.Stderr, 5) {
		paths = append(paths, m[1])
	}
	if len(paths) == 0 {
		return ""
	}
	return " (" + strings.Join(paths, ", ") + ")"
}

var notUpToDateRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`Entry '([^'\n]+)' (?:not uptodate|would be overwritten)`)
})
