package usertree

import (
	"cmp"
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
