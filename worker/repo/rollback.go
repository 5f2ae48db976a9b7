package repo

import (
	"bytes"
	"fmt"
	"sort"
)

// Rollback puts each of paths back as it was at baseline, in the working
// tree and the index, and touches nothing else:
//   - a path clean at baseline gets the current HEAD's content, index too;
//     a path HEAD does not have (the agent created it) is deleted, with the
//     parent directories that deleting it leaves empty;
//   - a path the user had dirty or untracked gets back the user's exact
//     bytes and mode, and its staged entry, even when the agent edited it
//     too: the user's edits are theirs to keep.
//
// Untracked and ignored files not in paths are never looked at.
func (r *Repo) Rollback(b *Baseline, paths []string) error {
	tree, err := r.headTree()
	if err != nil {
		return fmt.Errorf("rollback: %w", err)
	}
	var remove, fromHead, restore []string
	var index bytes.Buffer // git update-index -z --index-info
	for _, p := range paths {
		e, dirty := b.Entries[p]
		switch {
		case dirty:
			if e.Deleted {
				remove = append(remove, p)
			} else {
				restore = append(restore, p)
			}
			switch {
			case e.Unmerged:
			case e.IndexMode != "":
				fmt.Fprintf(&index, "%s %s 0\t%s\x00", e.IndexMode, e.IndexBlob, p)
			default:
				fmt.Fprintf(&index, "0 %s\t%s\x00", zeroHash, p)
			}
		case inTree(tree, p):
			fromHead = append(fromHead, p)
		default:
			remove = append(remove, p)
			fmt.Fprintf(&index, "0 %s\t%s\x00", zeroHash, p)
		}
	}
	// Deepest first, so a directory the agent put where a file was is
	// emptied before the file comes back.
	sort.Slice(remove, func(i, j int) bool { return len(remove[i]) > len(remove[j]) })
	for _, p := range remove {
		if err := r.removeFile(p); err != nil {
			return fmt.Errorf("rollback: %w", err)
		}
	}
	if len(fromHead) > 0 {
		if _, err := r.git(nulJoin(fromHead), "restore", "--source=HEAD", "--staged", "--worktree",
			"--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			return fmt.Errorf("rollback: %w", err)
		}
	}
	for _, p := range restore {
		f, h := b.Entries[p].state()
		data, err := r.readBlob(h)
		if err != nil {
			return fmt.Errorf("rollback %s: %w", p, err)
		}
		if err := r.writeFile(p, f.Mode, data); err != nil {
			return fmt.Errorf("rollback: %w", err)
		}
	}
	if index.Len() > 0 {
		if _, err := r.git(index.Bytes(), "update-index", "-z", "--index-info"); err != nil {
			return fmt.Errorf("rollback: %w", err)
		}
	}
	return nil
}
