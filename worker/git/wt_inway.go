package git

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// InTheWay is what would stop landing commit on target, found without
// changing anything: a *LandRefused naming the user's files in the way
// (changed, staged or untracked where commit changes a file), an
// operation in progress in the tree that has target checked out, or nil.
// bh land asks it first, so that a refusal leaves the task as it was.
func (r *Repo) InTheWay(target, commit, taskPath string) error {
	tip, err := r.BranchTip(target)
	if err != nil || tip == "" || tip == commit {
		return err
	}
	dir, err := r.checkoutOf(target)
	if err != nil || dir == "" {
		return err
	}
	gitDir, err := r.treeGitDir(dir)
	if err != nil {
		return err
	}
	if op, err := inProgressOp(gitDir); err != nil || op != "" {
		if err == nil {
			err = &LandRefused{Target: target, Dir: dir, Reason: "a " + op + " is in progress"}
		}
		return err
	}
	out, err := r.read(nil, "merge-base", tip, commit)
	if err != nil {
		return err
	}
	base := strings.TrimSpace(string(out))
	if out, err = r.read(nil, "diff-tree", "-r", "-z", "--name-only", "--no-renames", base, commit); err != nil {
		return err
	}
	theirs := map[string]bool{}
	for _, p := range splitNul(out) {
		theirs[p] = p != taskPath
	}
	if out, err = r.runGit(dir, gitEnv("LC_ALL=C"), nil, "--no-optional-locks", "status", "--porcelain", "-z",
		"--untracked-files=all", "--no-renames"); err != nil {
		return err
	}
	var paths []string
	for _, f := range splitNul(out) {
		if len(f) > 3 && theirs[f[3:]] && !r.ownCopy(dir, tip, commit, f[3:]) {
			paths = append(paths, f[3:])
		}
	}
	if len(paths) > 0 {
		sort.Strings(paths)
		return &LandRefused{Target: target, Dir: dir, Paths: paths,
			Reason: "your uncommitted changes touch files the landing changes"}
	}
	return r.ignoredInTheWay(dir, target, base, commit, taskPath)
}

// inProgressOp names the operation in progress in the worktree whose git
// dir is gitDir: "merge", "rebase", "am", "cherry-pick", "revert",
// "bisect", or "" when none.
func inProgressOp(gitDir string) (string, error) {
	checks := []struct{ file, op string }{
		{"rebase-merge", "rebase"},
		{"rebase-apply/applying", "am"},
		{"rebase-apply", "rebase"},
		{"MERGE_HEAD", "merge"},
		{"CHERRY_PICK_HEAD", "cherry-pick"},
		{"REVERT_HEAD", "revert"},
		{"BISECT_LOG", "bisect"},
	}
	for _, c := range checks {
		_, err := os.Lstat(filepath.Join(gitDir, c.file))
		if err == nil {
			return c.op, nil
		}
		if !os.IsNotExist(err) {
			return "", err
		}
	}
	return "", nil
}
