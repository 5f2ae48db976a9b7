package git

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// CommonDir is the git dir shared by all of the repository's worktrees.
func (r *Repo) CommonDir() string { return r.commonDir }

// GitDir is this working tree's own git dir: its HEAD and index.
func (r *Repo) GitDir() string { return r.gitDir }

// Parent is commit's first parent ("" for a root commit).
func (r *Repo) Parent(commit string) (string, error) {
	c, err := object.GetCommit(r.storage(), plumbing.NewHash(commit))
	if err != nil {
		return "", fmt.Errorf("read commit %s: %w", commit, err)
	}
	if len(c.ParentHashes) == 0 {
		return "", nil
	}
	return c.ParentHashes[0].String(), nil
}

// FileAt is the content of path in commit.
func (r *Repo) FileAt(commit, path string) ([]byte, error) {
	tree, err := r.commitTree(commit)
	if err != nil {
		return nil, err
	}
	e, ok := treeFile(tree, path)
	if !ok {
		return nil, fmt.Errorf("%s has no %s", commit, path)
	}
	return r.readBlob(e.Hash)
}

// CommitFile commits, on top of parent, parent's tree with path holding
// data: a finished task whose agent changed nothing still lands its task
// file. With no parent, the commit holds that one file (a claim). An
// object only; no ref moves. The author is the user's git identity. A
// commit with a parent is signed as the user's git config asks (see
// CommitTree); one without is bh's own record, never signed.
func (r *Repo) CommitFile(parent, path string, data []byte, message string) (string, error) {
	base, err := r.commitTree(parent)
	if err != nil {
		return "", err
	}
	blob, err := r.writeBlob(data)
	if err != nil {
		return "", fmt.Errorf("store %s: %w", path, err)
	}
	tree, err := r.buildTree(base, map[string]treeChange{path: {Mode: filemode.Regular, Hash: blob}})
	if err != nil {
		return "", err
	}
	if parent != "" { // on history: signed as the user's config asks
		return r.CommitTree(nil, tree.String(), message, parent)
	}
	out, err := r.Write([]byte(message), "commit-tree", tree.String(), "-F", "-")
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// SetBranch points refs/heads/<name> at commit, provided it still points
// at old: a branch that moved meanwhile is never overwritten.
func (r *Repo) SetBranch(name, commit, old string) error {
	if _, err := r.Write(nil, "update-ref", "-m", "bh: "+name, "refs/heads/"+name, commit, old); err != nil {
		return fmt.Errorf("set branch %s: %w", name, err)
	}
	return nil
}

// HasIdentity reports whether git can name an author and a committer.
func (r *Repo) HasIdentity() bool {
	_, err := r.Read(nil, "var", "GIT_AUTHOR_IDENT")
	if err == nil {
		_, err = r.Read(nil, "var", "GIT_COMMITTER_IDENT")
	}
	return err == nil
}

// ChangedPaths lists the paths that differ between two commits (or
// trees), sorted: objects only, no working tree is read.
func (r *Repo) ChangedPaths(from, to string) ([]string, error) {
	out, err := r.Read(nil, "diff", "--name-only", "--no-renames", "-z", from, to, "--")
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	paths := SplitNul(out)
	sort.Strings(paths)
	return paths, nil
}

// OnBranch reports whether a branch or tag holds commit: whether deleting
// bh's last ref to it could lose it to git gc.
func (r *Repo) OnBranch(commit string) (bool, error) {
	out, err := r.Read(nil, "for-each-ref", "--count=1", "--contains", commit, "--format=%(refname)",
		"refs/heads/", "refs/tags/")
	return strings.TrimSpace(string(out)) != "", err
}

// Landed reports whether commit is target's tip or one of its ancestors.
func (r *Repo) Landed(target, commit string) (bool, error) {
	tip, err := r.BranchTip(target)
	if err != nil || tip == "" {
		return false, err
	}
	ok, err := r.Contains(tip, commit)
	if err != nil {
		return false, fmt.Errorf("landed on %s: %w", target, err)
	}
	return ok, nil
}

// StagedOutside reports whether the user's index holds staged changes
// outside dir (bh's store): bh init then commits nothing of its own, so
// that the user's next commit is theirs alone and nothing of theirs is
// committed under bh's name.
func (r *Repo) StagedOutside(dir string) (bool, error) {
	_, err := r.Read(nil, "diff", "--cached", "--quiet", "--", ".", ":(exclude)"+dir)
	if IsExit(err, 1) {
		return true, nil
	}
	return false, err
}

// MergeBase is the best common ancestor of a and b, "" when none.
func (r *Repo) MergeBase(a, b string) (string, error) {
	out, err := r.Read(nil, "merge-base", a, b)
	if IsExit(err, 1) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// StoreChanges lists what is uncommitted under paths (bh's store): git's
// porcelain status lines, untracked files each on its own.
func (r *Repo) StoreChanges(paths ...string) ([]string, error) {
	args := append([]string{"status", "--porcelain", "-z", "--untracked-files=all", "--no-renames", "--"}, paths...)
	out, err := r.Read(nil, args...)
	if err != nil {
		return nil, err
	}
	return SplitNul(out), nil
}

// Ahead counts the commits of a not in b, and of b not in a; with no b,
// every commit of a.
func (r *Repo) Ahead(a, b string) (int, int, error) {
	if b == "" {
		out, err := r.Read(nil, "rev-list", "--count", a)
		if err != nil {
			return 0, 0, err
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(out)))
		return n, 0, err
	}
	out, err := r.Read(nil, "rev-list", "--left-right", "--count", a+"..."+b)
	if err != nil {
		return 0, 0, err
	}
	var x, y int
	if _, err := fmt.Sscan(string(out), &x, &y); err != nil {
		return 0, 0, fmt.Errorf("rev-list: %q: %w", out, err)
	}
	return x, y, nil
}

// RegisterMergeDriver defines, in the repository's config, the merge
// driver that .bh/.gitattributes names for task files. A fresh clone lacks
// it until bh init or bh sync runs there.
func (r *Repo) RegisterMergeDriver(name string) error {
	// Read first, both keys in one process: writing takes config.lock,
	// which every sync would otherwise wait on, and the user's config is
	// left alone.
	have := r.configMatching(`^merge\.` + regexp.QuoteMeta(name) + `\.(name|driver)$`)
	for _, kv := range [][2]string{
		{"merge." + name + ".name", "bh task files, field by field"},
		{"merge." + name + ".driver", "bh merge-file %O %A %B %P"},
	} {
		if have[kv[0]] == kv[1] {
			continue
		}
		if _, err := r.Write(nil, "config", kv[0], kv[1]); err != nil {
			return fmt.Errorf("register the merge driver: %w", err)
		}
	}
	return nil
}

// Maintain runs git's automatic housekeeping (`git maintenance run
// --auto`: gc --auto and whatever else the user's configuration enables),
// which git commit starts after every commit and bh's commits leave out so
// that no task waits for it. The worker calls it when it has nothing to do.
// It returns quickly when nothing is due, and git runs a due gc in the
// background unless gc.autoDetach is false.
func (r *Repo) Maintain() error {
	if _, err := r.Write(nil, "maintenance", "run", "--auto", "--quiet"); err != nil {
		return fmt.Errorf("git maintenance: %w", err)
	}
	return nil
}

// TaskCommit is the newest commit on ref whose message carries task id's
// trailer ("bh-task: <id>", as a landing writes it), "" when none does.
func (r *Repo) TaskCommit(ref, id string) (string, error) {
	out, err := r.Read(nil, "log", "-1", "--format=%H", "--grep=^bh-task: "+regexp.QuoteMeta(id)+"$", ref, "--")
	return strings.TrimSpace(string(out)), err
}
