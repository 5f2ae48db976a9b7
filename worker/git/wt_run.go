package git

import (
	"fmt"
	"maps"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// RunInput writes the worktree's state, as Snapshot does on base (.bh/ as
// base has it), with files put in (a pod's request), as one commit whose
// parent is base: what a task pod runs on (runner: k8s). An object only,
// bh's own, never signed; no ref moves.
func (w *Worktree) RunInput(base string, files map[string][]byte) (string, error) {
	k, err := w.Work(base)
	if err != nil {
		return "", err
	}
	k.Close()
	tree, err := object.GetTree(w.repo.storage(), k.tree)
	if err != nil {
		return "", fmt.Errorf("run input: %w", err)
	}
	changes := map[string]treeChange{}
	for _, p := range slices.Sorted(maps.Keys(files)) {
		blob, err := w.repo.writeBlob(files[p])
		if err != nil {
			return "", fmt.Errorf("run input %s: %w", p, err)
		}
		changes[p] = treeChange{Mode: filemode.Regular, Hash: blob}
	}
	h, err := w.repo.buildTree(tree, changes)
	if err != nil {
		return "", fmt.Errorf("run input: %w", err)
	}
	c, err := w.repo.writeCommit(h, []plumbing.Hash{plumbing.NewHash(base)}, "bh: a run's input")
	if err != nil {
		return "", fmt.Errorf("run input: %w", err)
	}
	return c.String(), nil
}

// TakeResult puts paths as commit has them into the worktree (deleted
// where commit has none), through git, hooks off: a pod's result the
// worker checked (package kube/result). git writes nothing beyond a link
// in the tree, nor into .git.
func (w *Worktree) TakeResult(commit string, paths []string) error {
	var keep, gone []string
	for _, p := range paths {
		if _, err := w.repo.Read(nil, "cat-file", "-e", commit+":"+p); err == nil {
			keep = append(keep, p)
		} else {
			gone = append(gone, p)
		}
	}
	if len(keep) > 0 {
		if _, err := w.wt.Write(nil, append([]string{"checkout", "-q", commit, "--"}, keep...)...); err != nil {
			return fmt.Errorf("take the result: %w", err)
		}
	}
	if len(gone) > 0 {
		// Tracked files, then those the input had untracked.
		if _, err := w.wt.Write(nil, append([]string{"rm", "-q", "-r", "-f", "--ignore-unmatch", "--"}, gone...)...); err != nil {
			return fmt.Errorf("take the result: %w", err)
		}
		if _, err := w.wt.Write(nil, append([]string{"clean", "-q", "-f", "--"}, gone...)...); err != nil {
			return fmt.Errorf("take the result: %w", err)
		}
	}
	return nil
}

// Head is the worktree's HEAD commit.
func (w *Worktree) Head() (string, error) { return w.wt.Head() }
