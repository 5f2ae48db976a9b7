package git

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// CommitStore commits what changed under dir (bh's store, .bh) on the
// branch checked out in the main tree, and nothing else: the user's other
// changes, staged or not, stay as they are. false when nothing changed.
// Hooks are skipped: this is bh's bookkeeping, not the user's work. The
// tree's index.lock is held throughout (see landHeld): a git commit of the
// user's at that instant never sweeps bh's files into its own commit.
func (r *Repo) CommitStore(dir, message string) (bool, error) {
	return r.CommitStorePaths(dir, message, dir)
}

// CommitStorePaths is CommitStore for some of the store's files (bh init's
// own): paths are pathspecs under dir.
func (r *Repo) CommitStorePaths(dir, message string, paths ...string) (bool, error) {
	changed, err := r.StoreChanges(paths...)
	if err != nil || len(changed) == 0 {
		return false, err
	}
	branch, err := r.CurrentBranch()
	if err != nil {
		return false, err
	}
	tip, err := r.BranchTip(branch) // "": the branch's first commit
	if err != nil || branch == "" {
		return false, cmp.Or(err, fmt.Errorf("commit %s: no branch checked out", dir))
	}
	rel, err := filepath.Rel(r.Root, dir)
	if err != nil {
		return false, err
	}
	// taskPath is the store: an undo leaves its files, bh's, alone.
	h := &heldLanding{dir: r.Root, gitDir: r.gitDir, target: branch, tip: tip, taskPath: filepath.ToSlash(rel)}
	if err := r.hold(h); err != nil {
		return false, err
	}
	committed, err := r.commitStore(h, paths, message)
	if err != nil {
		return false, errors.Join(fmt.Errorf("commit %s: %w", dir, err), r.undoHeld(h))
	}
	return committed, r.commitHeld(h)
}

// commitStore stages dir as the working tree has it in the held index,
// and commits tip's tree with dir so, moving the branch there; false when
// that tree is tip's (the index alone was behind).
func (r *Repo) commitStore(h *heldLanding, paths []string, message string) (bool, error) {
	add := append([]string{"add", "-A", "--"}, paths...)
	if _, err := r.runGit(r.Root, h.env(), nil, add...); err != nil {
		return false, err
	}
	treeEnv := gitEnv("GIT_INDEX_FILE="+h.treeIndex(), "LC_ALL=C")
	defer os.Remove(h.treeIndex())
	from, parents, old := []string{"read-tree", "--empty"}, []string{}, strings.Repeat("0", 40) // must not exist yet
	if h.tip != "" {
		from, parents, old = []string{"read-tree", h.tip}, []string{"-p", h.tip}, h.tip
	}
	_, err := r.runGit(r.Root, treeEnv, nil, from...)
	if err == nil {
		_, err = r.runGit(r.Root, treeEnv, nil, add...)
	}
	var tree, tipTree []byte
	if err == nil {
		tree, err = r.runGit(r.Root, treeEnv, nil, "write-tree")
	}
	if err == nil && h.tip != "" {
		tipTree, err = r.read(nil, "rev-parse", h.tip+"^{tree}")
	}
	if err != nil || string(tree) == string(tipTree) {
		return false, err
	}
	args := append(append([]string{"commit-tree", strings.TrimSpace(string(tree))}, parents...), "-F", "-")
	out, err := r.git([]byte(message), args...)
	if err != nil {
		return false, err
	}
	h.commit = strings.TrimSpace(string(out))
	if err := r.writeNote(h); err != nil {
		return false, err
	}
	_, err = r.git(nil, "update-ref", "-m", "commit: "+strings.SplitN(message, "\n", 2)[0], "refs/heads/"+h.target, h.commit, old)
	return err == nil, err
}

// StoreChanges lists what is uncommitted under paths (bh's store): git's
// porcelain status lines, untracked files each on its own.
func (r *Repo) StoreChanges(paths ...string) ([]string, error) {
	args := append([]string{"status", "--porcelain", "-z", "--untracked-files=all", "--no-renames", "--"}, paths...)
	out, err := r.read(nil, args...)
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
	// As merge does: a file only touched since is not a change in the way.
	if _, err := r.runGit(dir, gitEnv("LC_ALL=C"), nil, "update-index", "--refresh"); err != nil && !isExit(err, 1) {
		os.Remove(r.pendingFile())
		return err
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
	for _, m := range inTheWayRe().FindAllStringSubmatch(ge.Stderr, -1) {
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
