package usertree

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bh-tracker/bh/worker/git"
)

// ErrTargetMoved means the target branch is no longer an ancestor of the
// commit to land: nothing changed; rebase onto its tip and land again.
var ErrTargetMoved = errors.New("the target branch moved")

// LandRefused is git refusing to fast-forward the tree that has the target
// checked out, to keep the user's work there: local changes or untracked
// files in the way (Paths), a merge or rebase in progress. Nothing changed.
type LandRefused struct {
	Target, Dir, Reason string
	Paths               []string
	Commit              string // the commit refused, when known
}

func (e *LandRefused) Error() string {
	msg := fmt.Sprintf("git would not fast-forward %s in %s: %s", e.Target, e.Dir, e.Reason)
	if len(e.Paths) > 0 {
		msg += ": " + strings.Join(e.Paths, ", ")
	}
	return msg
}

// Land fast-forwards branch target to commit: in the working tree that has
// it checked out by git's two-tree merge under its index.lock (landHeld),
// which leaves the user's unrelated changes as they are and refuses
// (*LandRefused) to overwrite any; by update-ref when none has.
// ErrTargetMoved when target is not an ancestor of commit; nil when commit
// is in target already (landing twice is a no-op).
func (r *Tree) Land(target, commit, taskPath string) error {
	if err := r.land(target, commit, taskPath); err != nil {
		return fmt.Errorf("land %s on %s: %w", git.Short(commit), target, err)
	}
	return nil
}

func (r *Tree) land(target, commit, taskPath string) error {
	// A sync killed between moving this tree and its branch is finished
	// first: a fast-forward would carry what it pulled along as the user's
	// staged changes, and no later sync could finish it.
	if err := r.Recover(); err != nil {
		return err
	}
	tip, err := r.BranchTip(target)
	if err != nil || tip == commit {
		return err
	}
	if tip == "" {
		return fmt.Errorf("branch %s does not exist", target)
	}
	out, err := r.Read(nil, "merge-base", commit, tip)
	switch mb := strings.TrimSpace(string(out)); {
	case err != nil && !git.IsExit(err, 1):
		return err
	case mb == commit:
		return nil // landed before
	case mb != tip:
		return ErrTargetMoved
	}
	dir, err := r.checkoutOf(target)
	if err != nil {
		return err
	}
	if dir == "" {
		if err := r.moveBranch(target, commit, tip); err != nil {
			return err
		}
		r.trackOwnCopy(commit, taskPath)
		return nil
	}
	return r.mergeIn(dir, target, tip, commit, taskPath)
}

// trackOwnCopy stages in the user's checkout the task file that a landing
// on target, checked out nowhere, just committed, when the checkout has
// it untracked (the task was added on target, then the user checked out
// another branch): left so, it would stop git checkout target ("untracked
// working tree files would be overwritten"). Staged at the bytes the
// landing committed, which bh writes there next, it lets git checkout
// target through, and the file is then clean there. Best effort: the
// branch has moved already, and what a failure leaves is git's own
// refusal, which names the file.
func (r *Tree) trackOwnCopy(commit, taskPath string) {
	if taskPath == "" || !occupied(r.Root, taskPath) {
		return
	}
	if blob := r.untrackedNew(r.Root, "HEAD", commit, taskPath); blob != "" {
		r.Write(nil, "update-index", "--add", "--cacheinfo", "100644,"+blob+","+taskPath)
	}
}

// moveBranch lands on a branch checked out nowhere: nothing to merge, the
// ref moves only if it still holds tip.
func (r *Tree) moveBranch(target, commit, tip string) error {
	if _, err := r.Write(nil, "update-ref", "-m", "bh: land", "refs/heads/"+target, commit, tip); err != nil {
		if now, _ := r.BranchTip(target); now != tip {
			return ErrTargetMoved
		}
		return err
	}
	return nil
}

// mergeIn fast-forwards the tree at dir, which has target checked out.
// Files in the way that are the landing's own (see removeOwnCopies) go,
// and the merge is tried again.
func (r *Tree) mergeIn(dir, target, tip, commit, taskPath string) error {
	err := r.tryMerge(dir, target, tip, commit, taskPath)
	if lr, ok := errors.AsType[*LandRefused](err); ok && r.removeOwnCopies(dir, tip, commit, lr.Paths) {
		err = r.tryMerge(dir, target, tip, commit, taskPath)
	}
	return err
}

func (r *Tree) tryMerge(dir, target, tip, commit, taskPath string) error {
	if err := r.ignoredInTheWay(dir, target, tip, commit, taskPath); err != nil {
		return err
	}
	return r.landHeld(dir, target, tip, commit, taskPath)
}

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
