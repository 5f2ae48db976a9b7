package repo

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

var (
	// ErrNothingToCommit means the paths hold no change against HEAD, for
	// example because the agent committed them itself.
	ErrNothingToCommit = errors.New("nothing to commit")
	// ErrNoIdentity means git has no user.name or user.email to commit with.
	ErrNoIdentity = errors.New("git does not know who you are")
)

// emptyTree is git's tree with no entries.
var emptyTree = plumbing.NewHash("4b825dc642cb6eb9a060e54bf8d69288fbee4904")

// Commit commits exactly paths as they are in the working tree, and nothing
// else: the user's staged changes to other paths stay staged and out of the
// commit, their unstaged and untracked files stay as they are. Additions,
// modifications and deletions all work, on an unborn branch too. A path the
// user had dirty at baseline is committed whole, their edits included.
// Afterwards the index holds paths as committed. It returns the new commit's
// hash; on an error the index and HEAD are as they were.
//
// Where `git commit` would do nothing but write objects and move HEAD (no
// commit hooks, no signing, default file-mode and symlink settings), bh does
// that itself with git's plumbing, which never rescans the whole tree.
// Otherwise `git commit --only` does the work, and the user's hooks run as
// for any commit. Neither way starts git's automatic maintenance; see
// Maintain.
func (r *Repo) Commit(paths []string, message string) (string, error) {
	if len(paths) == 0 {
		return "", fmt.Errorf("commit: %w", ErrNothingToCommit)
	}
	msg := cleanMessage(message)
	if msg == "" {
		return "", fmt.Errorf("commit: empty commit message")
	}
	plain := make(chan bool, 1) // read while git hashes the files
	go func() { plain <- r.plainCommit() }()
	head, err := r.Head()
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	base, err := r.commitTree(head)
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	changes, err := r.currentChanges(base, paths)
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	if !<-plain || touchesGitlink(base, changes) {
		return r.commitPorcelain(paths, changes, msg)
	}
	// A commit made meanwhile (by the user, say) is built on, as git
	// commit would; the tree is HEAD's with the paths replaced.
	for tries := 1; ; tries++ {
		commit, err := r.commitOn(head, base, changes, msg)
		if !errors.Is(err, errHeadMoved) || tries == 3 {
			return commit, err
		}
		if head, err = r.Head(); err != nil {
			return "", fmt.Errorf("commit: %w", err)
		}
		if base, err = r.commitTree(head); err != nil {
			return "", fmt.Errorf("commit: %w", err)
		}
	}
}

var errHeadMoved = errors.New("HEAD moved while committing")

// commitOn commits changes on top of head (whose tree is base) with git's
// plumbing: objects first, then HEAD, then the index.
func (r *Repo) commitOn(head string, base *object.Tree, changes map[string]treeChange, msg string) (string, error) {
	tree, err := r.buildTree(base, changes)
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	if base != nil && tree == base.Hash || base == nil && tree == emptyTree {
		return "", fmt.Errorf("commit: %w", ErrNothingToCommit)
	}
	args := []string{"commit-tree", tree.String(), "-F", "-"}
	reflog, old := "commit (initial): ", zeroHash // zero: the branch must not exist yet
	if head != "" {
		args = append(args, "-p", head)
		reflog, old = "commit: ", head
	}
	out, err := r.git([]byte(msg), args...)
	if err != nil {
		return "", fmt.Errorf("commit: %w", r.explain(err))
	}
	commit := strings.TrimSpace(string(out))
	subject, _, _ := strings.Cut(msg, "\n")
	// The old value makes this fail, changing nothing, if HEAD moved
	// since it was read: bh never overwrites a commit it did not see.
	if _, err := r.git(nil, "update-ref", "-m", reflog+subject, "HEAD", commit, old); err != nil {
		if now, herr := r.Head(); herr == nil && now != head {
			return "", fmt.Errorf("commit: %w", errHeadMoved)
		}
		return "", fmt.Errorf("commit: %w", err)
	}
	if err := r.stage(changes); err != nil {
		return "", fmt.Errorf("commit: %w", errors.Join(err, r.undoCommit(head, commit)))
	}
	return commit, nil
}

// touchesGitlink reports whether a change falls on a submodule, whose
// directory bh does not read: git add knows what to stage for it.
func touchesGitlink(base *object.Tree, changes map[string]treeChange) bool {
	if base == nil {
		return false
	}
	for p := range changes {
		if e, err := base.FindEntry(p); err == nil && e.Mode == filemode.Submodule {
			return true
		}
	}
	return false
}
