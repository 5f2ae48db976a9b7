package usertree

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/bh-tracker/bh/worker/git"
)

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
