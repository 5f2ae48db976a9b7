package usertree

import (
	"cmp"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bh-tracker/bh/worker/git"
)

// A landing in the user's tree moves its files and index, then its
// branch. git merge releases the index between the two, and a git command
// of the user's in that instant (a commit) sees the landed files staged
// on the old commit and sweeps them into its own. So bh holds the tree's
// index.lock from before the files move until after the branch did: the
// user's git waits for it, as for any other git. The new index is built
// in a copy (GIT_INDEX_FILE) by git's two-tree merge, the safety checks of
// checkout and merge, and put in place under the lock. A note in the
// common git dir says what is held, so that a bh killed half-way is
// finished or undone by the next landing or sync (finishLanding).

func (r *Tree) landNote() string { return filepath.Join(r.CommonDir(), "bh-land-held") }

// heldLanding is one landing's state: the tree, its git dir, the branch
// and both commits, and the token that marks the lock as bh's.
type heldLanding struct {
	dir, gitDir, target, tip, commit, taskPath, token string
}

func (h *heldLanding) lock() string      { return filepath.Join(h.gitDir, "index.lock") }
func (h *heldLanding) index() string     { return filepath.Join(h.gitDir, "bh-land-index") }
func (h *heldLanding) treeIndex() string { return h.index() + "-tree" } // CommitStore's second
func (h *heldLanding) env() []string     { return git.Env("GIT_INDEX_FILE="+h.index(), "LC_ALL=C") }

// holds reports whether the tree's index.lock is still this landing's.
func (h *heldLanding) holds() bool {
	b, err := os.ReadFile(h.lock())
	return err == nil && string(b) == h.token
}

// clearTemps removes the index copies, and git's locks on them. Only bh,
// holding the tree's index.lock, uses them: while it holds it, any lock
// found is a killed bh's git's, and would stop the next git step. bh
// never kills its git, so a lock goes only once no git runs here.
func (r *Tree) clearTemps(h *heldLanding) {
	for _, ix := range []string{h.index(), h.treeIndex()} {
		os.Remove(ix)
		if _, err := os.Lstat(ix + ".lock"); err == nil && !r.GitRunning() {
			os.Remove(ix + ".lock")
		}
	}
}

// landHeld fast-forwards the tree at dir (target checked out) from tip to
// commit, holding its index.lock throughout (see above). taskPath, bh's
// task file, is taken at commit's version in the new index: its
// uncommitted copy in the tree is bh's own, written after.
func (r *Tree) landHeld(dir, target, tip, commit, taskPath string) error {
	gitDir, err := r.TreeGitDir(dir)
	if err != nil {
		return err
	}
	h := &heldLanding{dir: dir, gitDir: gitDir, target: target, tip: tip, commit: commit, taskPath: taskPath}
	if op, err := git.OpInProgress(h.gitDir); err != nil || op != "" {
		return cmp.Or(err, error(&LandRefused{Target: target, Dir: dir, Reason: "a " + op + " is in progress"}))
	}
	if err := r.hold(h); err != nil {
		return err
	}
	if err := r.moveHeld(h); err != nil {
		if lr, ok := errors.AsType[*LandRefused](err); ok { // nothing moved
			os.Remove(h.index())
			return errors.Join(r.inTheWay(lr, taskPath), r.release(h))
		}
		return errors.Join(err, r.undoHeld(h))
	}
	return r.commitHeld(h)
}

// inTheWay is a refusal of git's two-tree merge, which names the first
// path in the way only, with every path named (InTheWay's).
func (r *Tree) inTheWay(lr *LandRefused, taskPath string) error {
	if all, ok := errors.AsType[*LandRefused](r.InTheWay(lr.Target, lr.Commit, taskPath)); ok && len(all.Paths) > 0 {
		return all
	}
	return lr
}

// hold takes the tree's index.lock for bh (waiting, as any git step, for
// a young lock another git holds), with its note, and copies the index.
func (r *Tree) hold(h *heldLanding) error {
	h.token = "bh-land " + rand.Text()
	if err := r.writeNote(h); err != nil {
		return fmt.Errorf("land: %w", err)
	}
	var waited time.Duration
	for pause := git.FirstLockWait; ; pause = git.NextLockWait(pause) {
		f, err := os.OpenFile(h.lock(), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			_, err = f.WriteString(h.token)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err == nil {
				r.clearTemps(h)
				_, err = git.CopyIndex(filepath.Join(h.gitDir, "index"), h.index())
				if errors.Is(err, fs.ErrNotExist) {
					err = nil // no index yet: read-tree starts from none
				}
			}
			if err != nil {
				return errors.Join(fmt.Errorf("land: %w", err), r.undoHeld(h))
			}
			return nil
		}
		if !errors.Is(err, fs.ErrExist) {
			os.Remove(r.landNote())
			return fmt.Errorf("land: %w", err)
		}
		// Held by another git: waited out as every git step waits for a
		// lock, each try after a pause a git command of its own (a
		// read-only one), as a step's retry is.
		if err := r.WaitLock(h.lock(), waited, err, []string{"merge"}); err != nil {
			os.Remove(r.landNote())
			return err
		}
		time.Sleep(pause)
		waited += pause
		if _, err := r.Run(h.dir, git.Env("LC_ALL=C"), nil, "--no-optional-locks", "rev-parse", "--git-dir"); err != nil {
			os.Remove(r.landNote())
			return err
		}
	}
}

// writeNote says what is held, for finishLanding.
func (r *Tree) writeNote(h *heldLanding) error {
	note := strings.Join([]string{h.dir, h.gitDir, h.target, h.tip, h.commit, h.taskPath, h.token}, "\n") + "\n"
	return os.WriteFile(r.landNote(), []byte(note), 0o644)
}

// moveHeld moves the files and the index copy to commit (git refuses,
// touching nothing, over the user's changes), then the branch.
func (r *Tree) moveHeld(h *heldLanding) error {
	taskPath := h.taskPath
	if _, err := os.Lstat(filepath.Join(h.dir, filepath.FromSlash(taskPath))); taskPath != "" && err == nil {
		// Its entry at commit's blob: git keeps an entry that already
		// equals the new commit's, and bh's own uncommitted copy of the
		// file (written after) never stops the landing.
		if e, err := r.BlobEntry(h.commit, taskPath); err != nil {
			return err
		} else if e != "" {
			// The mode-0 line drops every stage first, as update-index wants for higher stages.
			in := fmt.Sprintf("0 %s\t%s\x00%s\x00", strings.Repeat("0", 40), taskPath, e)
			if _, err := r.Run(h.dir, h.env(), []byte(in), "update-index", "-z", "--index-info"); err != nil {
				return err
			}
		}
	}
	// read-tree trusts the index's stat data: a file only touched since
	// (its bytes as committed) looks changed, and is refused over. It
	// checks every path before it writes any, so a refusal moved nothing:
	// the index refreshed (as merge does first), it is tried once more.
	// Refreshing only then spares every landing a scan of the whole tree.
	err := r.readTree(h)
	if stderr, _ := git.Stderr(err); strings.Contains(stderr, "not uptodate") {
		if _, err := r.Run(h.dir, h.env(), nil, "update-index", "-q", "--refresh"); err != nil && !git.IsExit(err, 1) {
			return err
		}
		err = r.readTree(h)
	}
	if stderr, ok := git.Stderr(err); ok {
		return readTreeRefusal(stderr, h, taskPath)
	} else if err != nil {
		return err
	}
	return r.moveBranch(h.target, h.commit, h.tip)
}

// commitHeld puts the new index in place and lets go of the lock.
func (r *Tree) commitHeld(h *heldLanding) error {
	if err := os.Rename(h.index(), filepath.Join(h.gitDir, "index")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("land: %w", err)
	}
	return r.release(h)
}

// undoHeld puts the files the landing moved back on tip (those that still
// hold commit's bytes: the user's own edits stay) and lets go: the index
// was never replaced. bh's task file (or, for CommitStore, its store) is
// left alone: its copy in the tree is bh's.
func (r *Tree) undoHeld(h *heldLanding) error {
	if h.holds() {
		r.clearTemps(h) // a killed git's lock on them would stop checkoutFrom
	}
	if h.commit == "" { // a store commit killed before its commit was made: no file moved
		return r.release(h)
	}
	paths, err := r.ChangedPaths(h.tip, h.commit)
	var back, gone []string
	for _, p := range paths {
		if err != nil || p == h.taskPath || strings.HasPrefix(p, h.taskPath+"/") {
			continue
		}
		want, berr := r.blobAt(h.commit, p)
		out, herr := r.Run(h.dir, git.Env("LC_ALL=C"), nil, "hash-object", "--", p)
		if berr != nil || herr != nil || strings.TrimSpace(string(out)) != want {
			continue // not moved, or changed since: not the landing's to undo
		}
		if in, _ := r.blobAt(h.tip, p); in != "" {
			back = append(back, p)
		} else {
			gone = append(gone, p)
		}
	}
	for _, p := range gone {
		os.Remove(filepath.Join(h.dir, filepath.FromSlash(p)))
	}
	if err == nil && len(back) > 0 {
		err = r.checkoutFrom(h, back)
	}
	return errors.Join(err, r.release(h))
}

// checkoutFrom writes paths as tip has them (modes, links and filters as
// git checks out), through an index of tip's own: the tree's is locked.
func (r *Tree) checkoutFrom(h *heldLanding, paths []string) error {
	env := git.Env("GIT_INDEX_FILE="+h.index(), "LC_ALL=C")
	defer os.Remove(h.index())
	if _, err := r.Run(h.dir, env, nil, "read-tree", h.tip); err != nil {
		return err
	}
	_, err := r.Run(h.dir, env, nil, append([]string{"checkout-index", "-f", "--"}, paths...)...)
	return err
}

// release removes the lock, if it is still bh's, and the note.
func (r *Tree) release(h *heldLanding) error {
	if h.holds() {
		r.clearTemps(h)
		os.Remove(h.lock())
	}
	if err := os.Remove(r.landNote()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// HeldIndex reports whether a landing (or store commit) of bh's left its
// hold on a tree's index: killed, or running now.
func (r *Tree) HeldIndex() bool {
	_, err := os.Stat(r.landNote())
	return err == nil
}

// finishLanding completes, or undoes, a landing killed while it held the
// tree's index (see above): the branch moved, the new index goes in place;
// it did not, the files go back. Nothing held: nothing to do. Callers hold
// the landing lock, so the note is never a live landing's.
func (r *Tree) finishLanding() error {
	b, err := os.ReadFile(r.landNote())
	if err != nil {
		return nil
	}
	f := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(f) != 7 {
		return os.Remove(r.landNote())
	}
	h := &heldLanding{dir: f[0], gitDir: f[1], target: f[2], tip: f[3], commit: f[4], taskPath: f[5], token: f[6]}
	now, err := r.BranchTip(h.target)
	if err != nil {
		return err
	}
	if now == h.commit {
		return r.commitHeld(h)
	}
	if now != h.tip {
		os.Remove(h.index()) // moved on since: the files stand on whatever it is now
		return r.release(h)
	}
	return r.undoHeld(h)
}
