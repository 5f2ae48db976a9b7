package git

import (
	"fmt"
	"slices"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// withBhOf returns tree with its top-level .bh entry replaced by base's
// (or dropped when base has none): .bh/ in a worktree is not the store, and
// never part of the agent's work.
func (r *Repo) withBhOf(tree plumbing.Hash, base string) (plumbing.Hash, error) {
	t, err := object.GetTree(r.storage(), tree)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("read tree %s: %w", tree, err)
	}
	bt, err := r.commitTree(base)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	want, wantOK := bhEntry(bt)
	have, haveOK := bhEntry(t)
	if wantOK == haveOK && want == have {
		return tree, nil
	}
	out := &object.Tree{Entries: slices.DeleteFunc(slices.Clone(t.Entries), isBh)}
	if wantOK {
		out.Entries = append(out.Entries, want)
		sort.Sort(object.TreeEntrySorter(out.Entries))
	}
	return r.writeObject(out)
}

// bhEntry is t's top-level .bh entry.
func bhEntry(t *object.Tree) (object.TreeEntry, bool) {
	if t != nil {
		if i := slices.IndexFunc(t.Entries, isBh); i >= 0 {
			return t.Entries[i], true
		}
	}
	return object.TreeEntry{}, false
}

func isBh(e object.TreeEntry) bool { return e.Name == ".bh" }

// WithFile returns a commit with commit's parents, author, committer,
// message and tree, except that path holds data (mode 100644). Objects
// only; no ref moves. Keeping the committer's date makes it deterministic:
// the same inputs give the same commit, so a rerun after a crash lands the
// very commit the journal names. commit itself is returned when path
// already holds data.
func (r *Repo) WithFile(commit, path string, data []byte) (string, error) {
	h, err := r.withFile(commit, path, data)
	if err != nil {
		return "", fmt.Errorf("add %s to %s: %w", path, Short(commit), err)
	}
	return h, nil
}

func (r *Repo) withFile(commit, path string, data []byte) (string, error) {
	c, err := object.GetCommit(r.storage(), plumbing.NewHash(commit))
	if err != nil {
		return "", err
	}
	tree, err := c.Tree()
	if err != nil {
		return "", err
	}
	blob, err := r.writeBlob(data)
	if err != nil {
		return "", err
	}
	if e, ok := treeFile(tree, path); ok && e.Hash == blob && e.Mode == filemode.Regular {
		return commit, nil
	}
	nt, err := r.buildTree(tree, map[string]treeChange{path: {Mode: filemode.Regular, Hash: blob}})
	if err != nil {
		return "", err
	}
	// The same commit with the new tree, through commit-tree: its old
	// signature would no longer match, so it is signed anew as the
	// user's config asks, or not at all.
	env := Env("GIT_AUTHOR_NAME="+c.Author.Name, "GIT_AUTHOR_EMAIL="+c.Author.Email,
		"GIT_AUTHOR_DATE="+gitDate(c.Author.When), "GIT_COMMITTER_NAME="+c.Committer.Name,
		"GIT_COMMITTER_EMAIL="+c.Committer.Email, "GIT_COMMITTER_DATE="+gitDate(c.Committer.When))
	parents := make([]string, len(c.ParentHashes))
	for i, p := range c.ParentHashes {
		parents[i] = p.String()
	}
	return r.CommitTree(env, nt.String(), c.Message, parents...)
}
