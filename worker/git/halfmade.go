package git

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// HalfMade lists the worktree registrations (.git/worktrees/<name>) that
// bh left and git trips on: the scratch worktrees of an older bh sync
// (bh-sync-*), and any of bh's own (ours says which paths are) that a
// killed `git worktree add` left half made, its HEAD never written and
// git's "initializing" lock still on it. While one is there, git fetch and
// git gc fail in the whole repository ("bad object worktrees/…/HEAD").
// Each is named by its admin dir.
func (r *Repo) HalfMade(ours func(path string) bool) ([]string, error) {
	admins, err := filepath.Glob(filepath.Join(r.commonDir, "worktrees", "*"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, admin := range admins {
		gitdir, _ := os.ReadFile(filepath.Join(admin, "gitdir"))
		path := filepath.Dir(strings.TrimSpace(string(gitdir)))
		lock, _ := os.ReadFile(filepath.Join(admin, "locked"))
		switch {
		case strings.HasPrefix(filepath.Base(admin), "bh-sync-"):
			out = append(out, admin)
		case strings.TrimSpace(string(lock)) == "initializing" && ours(path) && !validHead(admin):
			out = append(out, admin)
		}
	}
	return out, nil
}

// validHead reports whether the worktree's HEAD names a branch or a commit
// (a half-made one holds zeros, or nothing).
func validHead(admin string) bool {
	b, err := os.ReadFile(filepath.Join(admin, "HEAD"))
	head := strings.TrimSpace(string(b))
	return err == nil && (strings.HasPrefix(head, "ref: ") || head != "" && strings.Trim(head, "0") != "")
}

// RemoveHalfMade removes a registration HalfMade found, and its checkout:
// a scratch or half-made worktree holds nothing of anyone's.
func (r *Repo) RemoveHalfMade(admin string) error {
	gitdir, _ := os.ReadFile(filepath.Join(admin, "gitdir"))
	if path := filepath.Dir(strings.TrimSpace(string(gitdir))); path != "." && path != "" {
		if err := os.RemoveAll(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := os.RemoveAll(admin); err != nil {
		return err
	}
	_, err := r.Write(nil, "worktree", "prune")
	return err
}
