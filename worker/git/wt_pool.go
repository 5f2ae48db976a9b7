package git

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// ResetSlot gives the pool slot at path to holder (recorded first, so
// that the slot stays held whatever state a kill leaves it in, a rebase
// included) and makes it branch's worktree, warm: only the files that
// differ from the branch (or from base, for a branch made now) are
// rewritten; then every untracked and ignored file goes but those matching
// spare (gitignore patterns: worktree.copy's files, worktree.keep's
// caches). A missing or broken slot is added afresh. The recorded base is
// cleared first; the caller records it once the slot is filled, so that a
// slot a kill cut short has none and is reset again. Submodules are
// checked out afresh.
func (r *Repo) ResetSlot(path, holder, branch, base, storeRoot string, spare []string) (*Worktree, error) {
	r.wtMu.Lock()
	defer r.wtMu.Unlock()
	path, err := canonPath(path)
	if err == nil {
		err = r.resetSlot(path, holder, branch, base, spare)
	}
	var wt *Worktree
	if err == nil {
		wt, err = r.worktreeAt(path, branch)
	}
	if err == nil {
		err = writeMarker(filepath.Join(wt.wt.gitDir, storeMarker), storeRoot)
	}
	if err == nil {
		err = wt.initSubmodules()
	}
	if err != nil {
		return nil, fmt.Errorf("worktree slot %s: %w", path, err)
	}
	return wt, nil
}

func (r *Repo) resetSlot(path, holder, branch, base string, spare []string) error {
	e, err := r.findWorktree(path)
	if err != nil {
		return err
	}
	if e != nil {
		if ok, err := r.repairWorktree(e); err != nil {
			return err
		} else if !ok {
			e = nil
		}
	}
	if e == nil {
		if err := r.addSlot(path, base); err != nil {
			return err
		}
	}
	gitDir, err := r.adminOf(path)
	if err == nil && gitDir == "" {
		err = fmt.Errorf("%s is not a registered worktree", path)
	}
	if err != nil {
		return err
	}
	slot := r.treeRepo(path, gitDir, "")
	records := r.RecordsDir(path)
	if err := writeRecord(records, recHolder, holder); err != nil {
		return err
	}
	// What an earlier task left (an operation in progress, a killed
	// reset's lock: no agent works in a slot being reset) goes, and the
	// recorded base with it.
	if err := freshSlot(path, gitDir); err != nil {
		return err
	}
	if err := clearDir(records, recHolder); err != nil {
		return err
	}
	return r.fillSlot(slot, path, branch, base, spare)
}

// addSlot registers a new slot at path, without files: the checkout
// fills it.
func (r *Repo) addSlot(path, base string) error {
	if err := moveAside(path); err != nil {
		return err
	}
	if err := clearDir(r.RecordsDir(path)); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return err
	}
	_, err := r.Run(r.Root, Env("LC_ALL=C"), nil, "worktree", "add", "-q", "--no-checkout", "--detach", path, base)
	return err
}

// fillSlot checks branch out in the slot at path (made at base when new)
// and cleans what is not its, but spare.
func (r *Repo) fillSlot(slot *Repo, path, branch, base string, spare []string) error {
	tip, err := r.BranchTip(branch)
	if err != nil {
		return err
	}
	checkout := []string{"-c", logRefs, "checkout", "-q", "-f", "-B", branch, base}
	if tip != "" {
		checkout = []string{"checkout", "-q", "-f", branch} // its commits are the task's: kept
	}
	if _, err := slot.Run(path, Env("LC_ALL=C"), nil, checkout...); err != nil {
		return err
	}
	clean := []string{"clean", "-q", "-ffdx"}
	for _, p := range spare {
		clean = append(clean, "-e", p)
	}
	_, err = slot.Run(path, Env("LC_ALL=C"), nil, clean...)
	return err
}

// ReleaseSlot gives holder's pool slot at path back: HEAD detached where
// it is (no file written), an operation in progress forgotten, the
// records cleared, the stashes made on branch dropped, and branch deleted
// when asked. The files stay until the next ResetSlot. A slot that holder
// does not hold (another's, or gone) is left alone.
func (r *Repo) ReleaseSlot(path, holder, branch string, deleteBranch bool) error {
	r.wtMu.Lock()
	defer r.wtMu.Unlock()
	path, err := canonPath(path)
	if err != nil {
		return err
	}
	gitDir, gerr := r.adminOf(path)
	if e, ferr := r.findWorktree(path); ferr != nil {
		err = ferr
	} else if gerr == nil && gitDir != "" && e != nil && !e.Prunable && hasGitFile(path) && r.readHolder(path) == holder {
		err = r.releaseSlot(path, gitDir)
	}
	if err == nil {
		err = r.dropStashes(branch)
	}
	if err == nil && deleteBranch {
		err = r.deleteBranch(branch)
	}
	if err != nil {
		return fmt.Errorf("release worktree slot %s: %w", filepath.Base(path), err)
	}
	return nil
}

// releaseSlot detaches HEAD, so that the branch can go or be checked out
// elsewhere, and clears the records, the holder last.
func (r *Repo) releaseSlot(path, gitDir string) error {
	if err := r.ownTree(path, gitDir, ""); err != nil {
		return err
	}
	// What the task left goes (an operation in progress forgotten, HEAD
	// and the files as they are), then HEAD is detached alone, by
	// plumbing: the index (a conflict's, say) and the files are the next
	// reset's to clean.
	records := r.RecordsDir(path)
	if err := freshSlot(path, gitDir, storeMarker); err != nil {
		return err
	}
	if err := clearDir(records, recHolder); err != nil {
		return err
	}
	slot := r.treeRepo(path, gitDir, "")
	if head, err := slot.slotHead(); err != nil {
		return err
	} else if head != "" {
		if _, err := slot.Run(path, Env("LC_ALL=C"), nil, "update-ref", "--no-deref", "-m", "bh: slot released",
			"HEAD", head); err != nil {
			return err
		}
	}
	return clearDir(records)
}

// slotHead is the commit to detach the slot's HEAD at (r is the slot's
// Repo), "" when it is detached already; read in-process, and by git when
// HEAD is anything else (unborn, in a ref store go-git cannot read).
func (r *Repo) slotHead() (string, error) {
	if plumbing.IsHash(readTrimmed(r.gitDir, "HEAD")) {
		return "", nil
	}
	if head, err := r.Head(); err == nil && head != "" {
		return head, nil
	}
	out, err := r.Run(r.Root, Env("LC_ALL=C"), nil, "rev-parse", "-q", "--verify", "HEAD")
	return strings.TrimSpace(string(out)), err
}

// readHolder is the task the slot at path is given to, "" for none.
func (r *Repo) readHolder(path string) string { return readTrimmed(r.RecordsDir(path), recHolder) }

// dropStashes drops the stash entries made on branch (git's "WIP on
// <branch>:" and "On <branch>:"): refs/stash is the repository's, shared
// by every worktree and the user's tree, and a task's stash must not
// outlive its task.
func (r *Repo) dropStashes(branch string) error {
	if tip, err := r.refTip("refs/stash"); err != nil || tip == "" {
		return err // no stash at all (read in-process): nothing to list
	}
	out, err := r.Read(nil, "stash", "list", "--format=%gs")
	if err != nil {
		return err
	}
	list := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	for i := len(list) - 1; i >= 0; i-- { // from the oldest: the others keep their numbers
		if strings.HasPrefix(list[i], "WIP on "+branch+":") || strings.HasPrefix(list[i], "On "+branch+":") {
			if _, err := r.Write(nil, "stash", "drop", "-q", fmt.Sprintf("stash@{%d}", i)); err != nil {
				return err
			}
		}
	}
	return nil
}
