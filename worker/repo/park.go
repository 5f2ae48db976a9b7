package repo

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// ParkInfo describes parked work.
//
// A park is two commits: Before (parent: HEAD when parked, or none on an
// unborn branch) holds the parked paths as they were at baseline, which is
// what the working tree went back to; Commit (parent: Before) holds them as
// the agent left them. Diffing the two shows only the agent's work, even in
// files the user had edited too.
type ParkInfo struct {
	Commit string   // the agent's work
	Before string   // the same paths as the tree was left after parking
	Base   string   // HEAD when parked; "" on an unborn branch
	Paths  []string // the parked paths, sorted
}

// Park snapshots the agent's changes to paths as commits under ref (which
// must be under refs/bh/ and must not exist yet), then rolls those paths
// back. The work is in the object database and the ref before any file is
// touched, so a crash between the two steps loses nothing.
func (r *Repo) Park(ref string, b *Baseline, paths []string, message string) (string, error) {
	if !strings.HasPrefix(ref, "refs/bh/") {
		return "", fmt.Errorf("park: ref %q is not under refs/bh/", ref)
	}
	if len(paths) == 0 {
		return "", fmt.Errorf("park %s: no changes to park", ref)
	}
	s, err := r.snapshot(b, paths)
	if err != nil {
		return "", fmt.Errorf("park %s: %w", ref, err)
	}
	var parents []plumbing.Hash
	if s.Head != "" {
		parents = append(parents, plumbing.NewHash(s.Head))
	}
	before, err := r.writeCommit(s.Before, parents, "bh: tree before "+ref+"\n")
	if err != nil {
		return "", fmt.Errorf("park %s: %w", ref, err)
	}
	if !strings.HasSuffix(message, "\n") {
		message += "\n"
	}
	work, err := r.writeCommit(s.Now, []plumbing.Hash{before}, message)
	if err != nil {
		return "", fmt.Errorf("park %s: %w", ref, err)
	}
	// The all-zero old value makes update-ref refuse to overwrite earlier
	// parked work under the same name.
	if _, err := r.git(nil, "update-ref", "-m", "bh park", ref, work.String(), zeroHash); err != nil {
		return "", fmt.Errorf("park %s: %w", ref, err)
	}
	if err := r.Rollback(b, paths); err != nil {
		return "", fmt.Errorf("park %s: work saved as %s, but %w", ref, work, err)
	}
	return work.String(), nil
}

// Parked describes the work parked under ref, or returns nil, nil when
// nothing is parked there.
func (r *Repo) Parked(ref string) (*ParkInfo, error) {
	st := r.storage()
	h, err := st.Reference(plumbing.ReferenceName(ref))
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("parked %s: %w", ref, err)
	}
	work, err := object.GetCommit(st, h.Hash())
	if err != nil {
		return nil, fmt.Errorf("parked %s: %w", ref, err)
	}
	if len(work.ParentHashes) != 1 {
		return nil, fmt.Errorf("parked %s: %s is not a bh park commit", ref, work.Hash)
	}
	before, err := work.Parent(0)
	if err != nil {
		return nil, fmt.Errorf("parked %s: %w", ref, err)
	}
	info := &ParkInfo{Commit: work.Hash.String(), Before: before.Hash.String()}
	if len(before.ParentHashes) > 0 {
		info.Base = before.ParentHashes[0].String()
	}
	from, err := before.Tree()
	if err != nil {
		return nil, fmt.Errorf("parked %s: %w", ref, err)
	}
	to, err := work.Tree()
	if err != nil {
		return nil, fmt.Errorf("parked %s: %w", ref, err)
	}
	changes, err := object.DiffTree(from, to)
	if err != nil {
		return nil, fmt.Errorf("parked %s: %w", ref, err)
	}
	for _, c := range changes {
		name := c.To.Name
		if name == "" {
			name = c.From.Name
		}
		info.Paths = append(info.Paths, name)
	}
	sort.Strings(info.Paths)
	return info, nil
}

// ParkedDiff is the patch (or with stat, the --stat summary) of the work
// parked under ref: `git diff Before Commit`.
func (r *Repo) ParkedDiff(ref string, stat bool) (string, error) {
	info, err := r.Parked(ref)
	if err != nil {
		return "", err
	}
	if info == nil {
		return "", fmt.Errorf("diff %s: nothing is parked there", ref)
	}
	return r.diff(info.Before, info.Commit, stat)
}

// DiffStat summarises the agent's current changes to paths against the
// baseline (`git diff --stat`), new untracked files included; the user's
// own edits in those files are not counted.
func (r *Repo) DiffStat(b *Baseline, paths []string) (string, error) {
	return r.agentDiff(b, paths, true)
}

// Diff is the full patch of the agent's current changes to paths.
func (r *Repo) Diff(b *Baseline, paths []string) (string, error) {
	return r.agentDiff(b, paths, false)
}

func (r *Repo) agentDiff(b *Baseline, paths []string, stat bool) (string, error) {
	if len(paths) == 0 {
		return "", nil
	}
	s, err := r.snapshot(b, paths)
	if err != nil {
		return "", fmt.Errorf("diff: %w", err)
	}
	return r.diff(s.Before.String(), s.Now.String(), stat)
}

func (r *Repo) diff(from, to string, stat bool) (string, error) {
	args := []string{"diff", "--no-color", "--no-ext-diff"}
	if stat {
		args = append(args, "--stat")
	}
	out, err := r.read(nil, append(args, from, to, "--")...)
	if err != nil {
		return "", fmt.Errorf("diff: %w", err)
	}
	return string(out), nil
}
