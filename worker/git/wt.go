package git

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// Worktree is a task's linked worktree (bh's, never the user's).
type Worktree struct {
	Path   string // absolute, symbolic links resolved (as git records it)
	Branch string // short name, "bh/<id>"

	repo    *Repo  // the main repository: objects, refs
	wt      *Repo  // the worktree itself: its own HEAD, index and files
	records string // bh's records of it (see RecordsDir)
}

// EnsureWorktree makes the worktree exist at path with branch checked out,
// the branch starting at base when it does not exist yet. A registered
// worktree whose directory is there is reused as it is (its files are the
// parked work); anything else at path is repaired or moved aside and the
// worktree added again (created). The store marker names storeRoot.
func (r *Repo) EnsureWorktree(path, branch, base, storeRoot string) (wt *Worktree, created bool, err error) {
	r.wtMu.Lock()
	defer r.wtMu.Unlock()
	path, err = canonPath(path)
	if err != nil {
		return nil, false, fmt.Errorf("worktree %s: %w", path, err)
	}
	created, err = r.ensureWorktree(path, branch, base)
	if err == nil {
		wt, err = r.worktreeAt(path, branch)
	}
	if err == nil {
		err = writeMarker(filepath.Join(wt.wt.gitDir, storeMarker), storeRoot)
	}
	if err == nil && created {
		err = wt.initSubmodules()
	}
	if err != nil {
		return nil, false, fmt.Errorf("worktree %s: %w", path, err)
	}
	return wt, created, nil
}

// ensureWorktree reuses a healthy registered worktree, else clears the
// way and adds it.
func (r *Repo) ensureWorktree(path, branch, base string) (bool, error) {
	list, err := r.worktrees()
	if err != nil {
		return false, err
	}
	for i, e := range list {
		switch {
		case i == 0: // the main tree
		case e.Path == path:
			if ok, err := r.repairWorktree(&e); ok || err != nil {
				return false, err
			}
		case e.Branch == "refs/heads/"+branch && e.Prunable:
			// git would not check the branch out twice, even where the
			// other worktree vanished (an older worktree.dir, say)
			if err := r.pruneVanished(e.Path); err != nil {
				return false, err
			}
		}
	}
	if err := moveAside(path); err != nil {
		return false, err
	}
	if err := clearDir(r.RecordsDir(path)); err != nil {
		return false, err
	}
	return true, r.addWorktree(path, branch, base)
}

// addWorktree runs `git worktree add`, making the branch at base if it is
// not there yet (a crash after git made it leaves it at base: reusable).
// git writes its "initializing" lock in the C locale, so that a crash in
// the middle is recognised (see repairWorktree).
func (r *Repo) addWorktree(path, branch, base string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return err
	}
	tip, err := r.BranchTip(branch)
	if err != nil {
		return err
	}
	args := []string{"worktree", "add", "-q", path, branch}
	if tip == "" {
		if base == "" {
			return fmt.Errorf("branch %s does not exist and no base was given", branch)
		}
		args = []string{"-c", logRefs, "worktree", "add", "-q", "--no-track", "-b", branch, path, base}
	}
	_, err = r.Run(r.Root, Env("LC_ALL=C"), nil, args...)
	return err
}

// OpenWorktree returns the registered worktree at path, or nil, nil when
// there is none (or its directory is gone).
func (r *Repo) OpenWorktree(path, branch string) (*Worktree, error) {
	r.wtMu.Lock()
	defer r.wtMu.Unlock()
	path, err := canonPath(path)
	if err != nil {
		return nil, fmt.Errorf("worktree %s: %w", path, err)
	}
	e, err := r.findWorktree(path)
	if err != nil || e == nil || e.Prunable || !hasGitFile(path) {
		return nil, err
	}
	return r.worktreeAt(path, branch)
}

// worktreeAt builds the Worktree for the healthy linked worktree at path.
// Its git dir is the admin dir git registered for path, never one the
// .git file names on its own word; its git files are made bh's first.
func (r *Repo) worktreeAt(path, branch string) (*Worktree, error) {
	admin, err := r.adminOf(path)
	if err == nil && admin == "" {
		err = fmt.Errorf("%s is not a registered worktree", path)
	}
	if err == nil {
		err = r.ownTree(path, admin, branch)
	}
	if err != nil {
		return nil, err
	}
	return &Worktree{Path: path, Branch: branch, repo: r, wt: r.treeRepo(path, admin, branch), records: r.RecordsDir(path)}, nil
}

// Base is the fork point of the worktree's branch, as recorded when the
// branch was made, restored or rebased; never recomputed from target when
// recorded: a sync rebases the target's local commits onto the remote's,
// and the merge-base then lies further back, making every commit landed
// in between look like the task's own work. Without the record, git's
// reflog of the branch (loggedBase), and only then the merge-base.
func (w *Worktree) Base(target string) (string, error) {
	if base := w.forkPoint(); base != "" {
		return base, nil
	}
	out, err := w.repo.Read(nil, "merge-base", "refs/heads/"+w.Branch, revName(target))
	if err != nil {
		return "", fmt.Errorf("base of %s on %s: %w", w.Branch, target, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// RecordedBase is the fork point recorded for the worktree, "" when none
// is (killed while being made); a rebase that finished without its new
// base recorded counts (see rebasedOnto).
func (w *Worktree) RecordedBase() string {
	if base := readTrimmed(w.records, recBase); plumbing.IsHash(base) {
		return cmp.Or(w.rebasedOnto(base), base)
	}
	return ""
}

// SetBase records commit as the worktree's fork point (see Base), which
// settles any rebase pending (see rebasedOnto). The record lives with
// bh's others, out of the agent's reach (see RecordsDir).
func (w *Worktree) SetBase(commit string) error {
	if err := writeRecord(w.records, recBase, commit); err != nil {
		return fmt.Errorf("record the base of %s: %w", w.Branch, err)
	}
	if err := os.Remove(w.ontoFile()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("record the base of %s: %w", w.Branch, err)
	}
	return nil
}

// logRefs has git log the updates of the branches bh makes and rebases,
// whatever the repository's config says: their log is where loggedBase
// finds a fork point.
const logRefs = "core.logAllRefUpdates=true"

// forkPoint is the base recorded with the worktree, else the one git's
// reflog of the branch shows (a git process: asked only then), else "".
func (w *Worktree) forkPoint() string {
	if base := w.RecordedBase(); base != "" {
		return base
	}
	return w.repo.loggedBase(w.Branch)
}

// loggedBase reads branch's fork point from git's reflog of it: the onto
// of its last rebase, else the commit it was created at; for a branch kept
// from an earlier attempt whose record went (see Base). "" when the log
// does not reach back to either, or names a commit the branch no longer
// descends from.
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

// revName qualifies a branch name, so that a tag or a file of the same name
// never stands for it; hashes and full ref names pass as they are.
func revName(name string) string {
	if strings.HasPrefix(name, "refs/") || plumbing.IsHash(name) {
		return name
	}
	return "refs/heads/" + name
}

// GitDir is the worktree's own git dir (HEAD, index), under the common one.
func (w *Worktree) GitDir() string { return w.wt.gitDir }
