package git

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// treeChange sets one file in a tree, or deletes it.
type treeChange struct {
	Delete bool
	Mode   filemode.FileMode
	Hash   plumbing.Hash
}

// buildTree writes base (nil for the empty tree) with changes applied, keyed
// by path. Only the subtrees on a changed path are read and rewritten;
// directories left empty disappear, as in git.
func (r *Repo) buildTree(base *object.Tree, changes map[string]treeChange) (plumbing.Hash, error) {
	h, _, err := r.buildSubtree(base, changes)
	return h, err
}

func (r *Repo) buildSubtree(base *object.Tree, changes map[string]treeChange) (plumbing.Hash, int, error) {
	entries := map[string]object.TreeEntry{}
	if base != nil {
		for _, e := range base.Entries {
			entries[e.Name] = e
		}
	}
	for dir, sub := range applyHere(entries, changes) {
		if err := r.buildNested(entries, dir, sub); err != nil {
			return plumbing.ZeroHash, 0, err
		}
	}
	tree := &object.Tree{Entries: slices.Collect(maps.Values(entries))}
	sort.Sort(object.TreeEntrySorter(tree.Entries))
	h, err := r.writeObject(tree)
	if err != nil {
		return plumbing.ZeroHash, 0, fmt.Errorf("write tree: %w", err)
	}
	return h, len(tree.Entries), nil
}

// applyHere applies to entries the changes of files directly in this
// tree, and returns the others by the directory they are in.
func applyHere(entries map[string]object.TreeEntry, changes map[string]treeChange) map[string]map[string]treeChange {
	nested := map[string]map[string]treeChange{}
	for p, c := range changes {
		dir, rest, deep := strings.Cut(p, "/")
		switch {
		case deep:
			if nested[dir] == nil {
				nested[dir] = map[string]treeChange{}
			}
			nested[dir][rest] = c
		case !c.Delete:
			entries[p] = object.TreeEntry{Name: p, Mode: c.Mode, Hash: c.Hash}
		case entries[p].Mode != filemode.Dir:
			delete(entries, p) // a directory stays: only a file is deleted
		}
	}
	return nested
}

// buildNested rewrites entries' directory dir with the changes below it.
func (r *Repo) buildNested(entries map[string]object.TreeEntry, dir string, sub map[string]treeChange) error {
	var subBase *object.Tree
	e, ok := entries[dir]
	isDir := e.Mode == filemode.Dir // a missing one is the zero entry: no directory
	if isDir {
		t, err := object.GetTree(r.storage(), e.Hash)
		if err != nil {
			return fmt.Errorf("read tree %s: %w", dir, err)
		}
		subBase = t
	} else if ok && !hasFile(sub) {
		return nil // only deletions below a file: nothing to do
	}
	h, n, err := r.buildSubtree(subBase, sub)
	switch {
	case err != nil:
		return err
	case n == 0 && isDir:
		delete(entries, dir)
	case n > 0:
		// a file replaced by a directory: the directory wins, as on disk
		entries[dir] = object.TreeEntry{Name: dir, Mode: filemode.Dir, Hash: h}
	}
	return nil
}

func hasFile(changes map[string]treeChange) bool {
	for _, c := range changes {
		if !c.Delete {
			return true
		}
	}
	return false
}
