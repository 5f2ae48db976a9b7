package repo

import (
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// snapshot holds two trees over the same paths: Before, as they were at
// baseline (what Rollback restores), and Now, as the agent left them.
// Their diff is exactly the agent's work.
type snapshot struct {
	Head   string
	Before plumbing.Hash
	Now    plumbing.Hash
}

// snapshot writes both trees, starting from the current HEAD's tree. Blobs
// are stored as `git add` would store them (clean filters applied), so the
// trees make honest commits and diffs.
func (r *Repo) snapshot(b *Baseline, paths []string) (*snapshot, error) {
	head, err := r.Head()
	if err != nil {
		return nil, err
	}
	base, err := r.commitTree(head)
	if err != nil {
		return nil, err
	}
	now, err := r.currentChanges(base, paths)
	if err != nil {
		return nil, err
	}
	before := map[string]treeChange{}
	for _, p := range paths {
		e, ok := b.Entries[p]
		if !ok {
			continue // clean at baseline: HEAD's version, already in base
		}
		was, h := e.state()
		switch {
		case !was.Exists:
			before[p] = treeChange{Delete: true}
		case was.Mode == filemode.Symlink:
			before[p] = treeChange{Mode: was.Mode, Hash: h}
		default:
			raw, err := r.readBlob(h)
			if err != nil {
				return nil, err
			}
			out, err := r.read(raw, "hash-object", "-w", "--stdin", "--path="+p)
			if err != nil {
				return nil, fmt.Errorf("store %s: %w", p, err)
			}
			before[p] = treeChange{Mode: was.Mode, Hash: plumbing.NewHash(strings.TrimSpace(string(out)))}
		}
	}
	s := &snapshot{Head: head}
	if s.Before, err = r.buildTree(base, before); err != nil {
		return nil, err
	}
	if s.Now, err = r.buildTree(base, now); err != nil {
		return nil, err
	}
	return s, nil
}

// currentChanges stores the paths as they are in the working tree now.
// Regular files go through `git hash-object`, which applies the clean
// filters their attributes ask for; symlinks are stored as their target.
func (r *Repo) currentChanges(base *object.Tree, paths []string) (map[string]treeChange, error) {
	changes := map[string]treeChange{}
	var regular []string
	for _, p := range paths {
		fi, err := r.lstat(p) // regular files are read by git, not here
		if err != nil {
			return nil, err
		}
		switch {
		case fi == nil || !fi.Mode().IsRegular() && fi.Mode()&fs.ModeSymlink == 0:
			changes[p] = treeChange{Delete: true}
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(r.abs(p))
			if err != nil {
				return nil, err
			}
			h, err := r.writeBlob([]byte(target))
			if err != nil {
				return nil, fmt.Errorf("store %s: %w", p, err)
			}
			changes[p] = treeChange{Mode: filemode.Symlink, Hash: h}
		default:
			mode := filemode.Regular
			if fi.Mode()&0o100 != 0 {
				mode = filemode.Executable
			}
			if e, ok := treeFile(base, p); ok && r.sameMode(e.Mode, mode) {
				mode = e.Mode // core.fileMode=false: keep the recorded exec bit
			}
			changes[p] = treeChange{Mode: mode}
			regular = append(regular, p)
		}
	}
	hashes, err := r.hashFiles(regular, true)
	if err != nil {
		return nil, err
	}
	for i, p := range regular {
		c := changes[p]
		c.Hash = hashes[i]
		changes[p] = c
	}
	return changes, nil
}

// hashFiles runs `git hash-object` on working-tree files, in batches.
func (r *Repo) hashFiles(paths []string, write bool) ([]plumbing.Hash, error) {
	var hashes []plumbing.Hash
	for _, batch := range batches(paths) {
		args := []string{"hash-object"}
		if write {
			args = append(args, "-w")
		}
		args = append(append(args, "--"), batch...)
		out, err := r.read(nil, args...)
		if err != nil {
			return nil, fmt.Errorf("hash files: %w", err)
		}
		lines := strings.Fields(string(out))
		if len(lines) != len(batch) {
			return nil, fmt.Errorf("hash files: %d hashes for %d files", len(lines), len(batch))
		}
		for _, l := range lines {
			hashes = append(hashes, plumbing.NewHash(l))
		}
	}
	return hashes, nil
}
