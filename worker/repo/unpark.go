package repo

import (
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// ConflictError means parked work cannot go back into the tree without a
// human: the listed paths changed both in the parked work and since.
type ConflictError struct {
	Ref   string
	Paths []string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("unpark %s: parked work conflicts with the working tree in %s",
		e.Ref, strings.Join(e.Paths, ", "))
}

// unparkStep is what Unpark does to one path.
type unparkStep struct {
	path   string
	remove bool              // delete the file
	take   bool              // take the parked version as it is
	merged []byte            // write this three-way merge result
	mode   filemode.FileMode // of merged
}

// Unpark puts the work parked under ref back into the working tree (the
// index is left alone). Each parked path is merged three ways: base is the
// path as parking left it, ours is the working tree now, theirs is the
// parked work. If ours is still base (nothing moved, the usual case) the
// parked version is taken as it is; if HEAD moved or the user edited the
// file since, `git merge-file` combines the two. Every path is checked
// before any is written: on a conflict nothing changes, the ref stays, and
// the error is a *ConflictError. On success the ref is deleted and the
// restored paths returned.
func (r *Repo) Unpark(ref string) ([]string, error) {
	info, err := r.Parked(ref)
	if err != nil {
		return nil, err
	}
	if info == nil {
		return nil, fmt.Errorf("unpark %s: nothing is parked there", ref)
	}
	steps, conflicts, err := r.planUnpark(info)
	if err != nil {
		return nil, fmt.Errorf("unpark %s: %w", ref, err)
	}
	if len(conflicts) > 0 {
		return nil, &ConflictError{Ref: ref, Paths: conflicts}
	}
	var take []string
	sort.Slice(steps, func(i, j int) bool { return len(steps[i].path) > len(steps[j].path) })
	for _, s := range steps {
		switch {
		case s.remove:
			if err := r.removeFile(s.path); err != nil {
				return nil, fmt.Errorf("unpark %s: %w", ref, err)
			}
		case s.take:
			take = append(take, s.path)
		}
	}
	if len(take) > 0 {
		// restore --worktree writes the files with smudge filters and modes
		// applied, and leaves the index alone.
		if _, err := r.git(nulJoin(take), "restore", "--source="+info.Commit, "--worktree",
			"--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			return nil, fmt.Errorf("unpark %s: %w", ref, err)
		}
	}
	for _, s := range steps {
		if s.merged != nil {
			if err := r.writeFile(s.path, s.mode, s.merged); err != nil {
				return nil, fmt.Errorf("unpark %s: %w", ref, err)
			}
		}
	}
	if _, err := r.git(nil, "update-ref", "-d", ref, info.Commit); err != nil {
		return nil, fmt.Errorf("unpark %s: work restored, but %w", ref, err)
	}
	return info.Paths, nil
}

// planUnpark decides every path's step without writing anything.
func (r *Repo) planUnpark(info *ParkInfo) (steps []unparkStep, conflicts []string, err error) {
	baseTree, err := r.commitTree(info.Before)
	if err != nil {
		return nil, nil, err
	}
	workTree, err := r.commitTree(info.Commit)
	if err != nil {
		return nil, nil, err
	}
	ours, err := r.cleanStates(info.Paths)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range info.Paths {
		base, inBase := treeFile(baseTree, p)
		theirs, inWork := treeFile(workTree, p)
		o := ours[p]
		switch {
		case o.dir:
			conflicts = append(conflicts, p) // a directory is where the file goes
		case r.sameEntry(o, theirs, inWork):
			// already there
		case r.sameEntry(o, base, inBase):
			steps = append(steps, unparkStep{path: p, remove: !inWork, take: inWork})
		case o.Exists && inBase && inWork && o.Mode != filemode.Symlink &&
			base.Mode != filemode.Symlink && theirs.Mode != filemode.Symlink:
			mode, ok := r.mergeMode(o.Mode, base.Mode, theirs.Mode)
			if !ok {
				conflicts = append(conflicts, p)
				continue
			}
			merged, clean, err := r.mergeFile(p, base, theirs)
			if err != nil {
				return nil, nil, err
			}
			if !clean {
				conflicts = append(conflicts, p)
				continue
			}
			steps = append(steps, unparkStep{path: p, merged: merged, mode: mode})
		default:
			conflicts = append(conflicts, p) // added, deleted or retyped on both sides
		}
	}
	return steps, conflicts, nil
}

func (r *Repo) mergeMode(ours, base, theirs filemode.FileMode) (filemode.FileMode, bool) {
	switch {
	case r.sameMode(ours, base):
		return theirs, true
	case r.sameMode(theirs, base):
		return ours, true
	}
	return ours, r.sameMode(ours, theirs)
}

func (r *Repo) sameEntry(o cleanState, e object.TreeEntry, exists bool) bool {
	if !o.Exists || !exists {
		return o.Exists == exists
	}
	return r.sameMode(o.Mode, e.Mode) && o.Hash == e.Hash
}
