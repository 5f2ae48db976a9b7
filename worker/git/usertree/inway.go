package usertree

import (
	"cmp"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bh-tracker/bh/worker/git"
)

// InTheWay is what would stop landing commit on target, found without
// changing anything: a *LandRefused naming the user's files in the way
// (changed, staged or untracked where commit changes a file), an
// operation in progress in the tree that has target checked out, or nil.
// bh land asks it first, so that a refusal leaves the task as it was.
func (r *Tree) InTheWay(target, commit, taskPath string) error {
	tip, err := r.BranchTip(target)
	if err != nil || tip == "" || tip == commit {
		return err
	}
	dir, err := r.checkoutOf(target)
	if err != nil || dir == "" {
		return err
	}
	gitDir, err := r.TreeGitDir(dir)
	if err != nil {
		return err
	}
	if op, err := git.OpInProgress(gitDir); err != nil || op != "" {
		return cmp.Or(err, error(&LandRefused{Target: target, Dir: dir, Reason: "a " + op + " is in progress"}))
	}
	out, err := r.Read(nil, "merge-base", tip, commit)
	if err != nil {
		return err
	}
	base := strings.TrimSpace(string(out))
	paths, err := r.changedInTheWay(dir, base, tip, commit, taskPath)
	if err != nil {
		return err
	}
	if len(paths) > 0 {
		sort.Strings(paths)
		return &LandRefused{Target: target, Dir: dir, Paths: paths,
			Reason: "your uncommitted changes touch files the landing changes"}
	}
	return r.ignoredInTheWay(dir, target, base, commit, taskPath)
}

// changedInTheWay lists the user's changes in the tree at dir (changed,
// staged or untracked) to files commit changes since base, but taskPath.
func (r *Tree) changedInTheWay(dir, base, tip, commit, taskPath string) ([]string, error) {
	out, err := r.Read(nil, "diff-tree", "-r", "-z", "--name-only", "--no-renames", base, commit)
	if err != nil {
		return nil, err
	}
	theirs := map[string]bool{}
	for _, p := range git.SplitNul(out) {
		theirs[p] = p != taskPath
	}
	if out, err = r.Run(dir, git.Env("LC_ALL=C"), nil, "--no-optional-locks", "status", "--porcelain", "-z",
		"--untracked-files=all", "--no-renames"); err != nil {
		return nil, err
	}
	var paths []string
	for _, f := range git.SplitNul(out) {
		if len(f) > 3 && theirs[f[3:]] && !r.ownCopy(dir, tip, commit, f[3:]) {
			paths = append(paths, f[3:])
		}
	}
	return paths, nil
}

// blobAt is the object p names in commit; "" when commit has no p.
func (r *Tree) blobAt(commit, p string) (string, error) {
	out, err := r.Read(nil, "ls-tree", "-z", commit, "--", p)
	if err != nil {
		return "", err
	}
	if f := strings.Fields(strings.SplitN(string(out), "\t", 2)[0]); len(f) >= 3 {
		return f[2], nil
	}
	return "", nil
}

// removeOwnCopies removes paths from the tree at dir when every one of
// them is an own copy (see ownCopy): what an attempt at landing commit
// that was cut short left, which git's merge then refuses to overwrite.
// false, and nothing removed, when any is not.
func (r *Tree) removeOwnCopies(dir, tip, commit string, paths []string) bool {
	for _, p := range paths {
		if !r.ownCopy(dir, tip, commit, p) {
			return false
		}
	}
	for _, p := range paths {
		if os.Remove(filepath.Join(dir, filepath.FromSlash(p))) != nil {
			return false
		}
	}
	return len(paths) > 0
}

// ownCopy reports whether p, in the tree at dir, is an untracked copy of
// the file commit adds (tip has none): not in the way of landing commit,
// which writes the same bytes there. Nothing of the user's is lost.
func (r *Tree) ownCopy(dir, tip, commit, p string) bool {
	want := r.untrackedNew(dir, tip, commit, p)
	if want == "" {
		return false
	}
	out, err := r.Run(dir, git.Env("LC_ALL=C"), nil, "hash-object", "--", p)
	return err == nil && strings.TrimSpace(string(out)) == want
}

// untrackedNew is the blob of the file p that commit adds and tip has
// not, when the index of the tree at dir has no p either; "" otherwise.
func (r *Tree) untrackedNew(dir, tip, commit, p string) string {
	want, err := r.blobAt(commit, p)
	if err != nil || want == "" {
		return ""
	}
	if in, err := r.blobAt(tip, p); err != nil || in != "" {
		return ""
	}
	if out, err := r.Run(dir, git.Env("LC_ALL=C"), nil, "--no-optional-locks", "ls-files", "-z", "--", p); err != nil || len(out) > 0 {
		return ""
	}
	return want
}

// checkoutOf is the working tree that has target checked out, "" when
// none has. A tree rebasing target, or one whose directory is missing,
// refuses the landing: the branch would move under it.
func (r *Tree) checkoutOf(target string) (string, error) {
	list, err := r.Worktrees()
	if err != nil {
		return "", err
	}
	ref := "refs/heads/" + target
	if dir := r.rebasingIn(ref, list[0].Path); dir != "" {
		return "", &LandRefused{Target: target, Dir: dir, Reason: "a rebase of " + target + " is in progress"}
	}
	for _, e := range list {
		if e.Bare || e.Branch != ref {
			continue
		}
		if e.Prunable {
			return "", &LandRefused{Target: target, Dir: e.Path, Reason: "checked out in a worktree that is missing"}
		}
		return e.Path, nil
	}
	return "", nil
}

// rebasingIn is the working tree where ref is being
// rebased: git lists that tree as detached, yet sets ref when done.
func (r *Tree) rebasingIn(ref, mainTree string) string {
	var heads []string
	for _, dir := range []string{"rebase-merge", "rebase-apply"} {
		heads = append(heads, filepath.Join(r.CommonDir(), dir, "head-name"))
		more, _ := filepath.Glob(filepath.Join(r.CommonDir(), "worktrees", "*", dir, "head-name"))
		heads = append(heads, more...)
	}
	for _, h := range heads {
		data, err := os.ReadFile(h)
		if err != nil || strings.TrimSpace(string(data)) != ref {
			continue
		}
		gitDir := filepath.Dir(filepath.Dir(h))
		if wt, err := os.ReadFile(filepath.Join(gitDir, "gitdir")); err == nil {
			return filepath.Dir(strings.TrimSpace(string(wt)))
		}
		return mainTree
	}
	return ""
}

// ignoredInTheWay refuses a landing that would add a file where the tree
// at dir has one git does not track: git refuses for an untracked file but
// silently overwrites an ignored one (a user's .env, say), which the
// agent's own commits could add with add -f.
func (r *Tree) ignoredInTheWay(dir, target, tip, commit, taskPath string) error {
	out, err := r.Read(nil, "diff-tree", "-r", "-z", "--name-only", "--no-renames", "--diff-filter=A", tip, commit)
	if err != nil {
		return err
	}
	var paths []string
	for _, p := range git.SplitNul(out) {
		if p != taskPath && occupied(dir, p) {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	return &LandRefused{Target: target, Dir: dir, Paths: paths,
		Reason: "untracked or ignored files would be overwritten"}
}

// occupied reports whether the new file p would replace something in the
// tree at dir: a file at p, or a file (not a folder) at one of its parents.
func occupied(dir, p string) bool {
	full := dir
	parts := strings.Split(p, "/")
	for i, part := range parts {
		full = filepath.Join(full, part)
		fi, err := os.Lstat(full)
		if err != nil {
			return false
		}
		if i == len(parts)-1 || !fi.IsDir() {
			return true
		}
	}
	return false
}
