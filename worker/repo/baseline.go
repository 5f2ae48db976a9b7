package repo

import (
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Baseline is the state of the tree just before an agent runs: HEAD, and
// every path that was dirty or untracked then. Paths not listed were clean,
// equal to HEAD. The worker persists it as JSON so that a killed worker can
// still tell the agent's changes from the user's.
type Baseline struct {
	Head    string           // "" on an unborn branch
	Entries map[string]Entry // by path
}

// Entry is one dirty or untracked path at baseline. Its working-tree bytes
// are stored raw (no filters) as a blob in the object database, so Rollback
// can restore them byte for byte.
type Entry struct {
	Deleted bool   `json:"deleted,omitempty"` // absent from the working tree
	Mode    string `json:"mode,omitempty"`    // "100644", "100755" or "120000"
	Blob    string `json:"blob,omitempty"`    // raw content (a symlink's target)

	IndexMode string `json:"index_mode,omitempty"` // staged entry; "" when not in the index
	IndexBlob string `json:"index_blob,omitempty"`
	Unmerged  bool   `json:"unmerged,omitempty"` // conflicted: bh leaves its index entry alone
}

func (e Entry) state() (fileState, plumbing.Hash) {
	if e.Deleted {
		return fileState{}, plumbing.ZeroHash
	}
	m, _ := filemode.New(e.Mode)
	return fileState{Exists: true, Mode: m}, plumbing.NewHash(e.Blob)
}

// Baseline records the tree as it is now. Only dirty and untracked paths are
// read and hashed; clean tracked files cost nothing beyond `git status`.
// Nested repositories (untracked directories with their own .git) and bh's
// own .bh/ files are left out.
func (r *Repo) Baseline() (*Baseline, error) {
	st, err := r.status()
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	b := &Baseline{Head: st.Head, Entries: make(map[string]Entry, len(st.Entries))}
	for _, se := range st.Entries {
		if isBhPath(se.Path) || strings.HasSuffix(se.Path, "/") {
			continue
		}
		e := b.Entries[se.Path] // a rename's two halves may name one path twice
		switch se.Kind {
		case 'u':
			e.Unmerged = true
		case '1', '2':
			if se.IndexMode != "000000" {
				e.IndexMode, e.IndexBlob = se.IndexMode, se.IndexHash
			}
		}
		f, err := r.readFile(se.Path)
		if err != nil {
			return nil, fmt.Errorf("baseline: %w", err)
		}
		if !f.Exists {
			e.Deleted = true
		} else {
			h, err := r.writeBlob(f.Data)
			if err != nil {
				return nil, fmt.Errorf("baseline: store %s: %w", se.Path, err)
			}
			e.Mode, e.Blob = fmt.Sprintf("%06o", uint32(f.Mode)), h.String()
		}
		b.Entries[se.Path] = e
	}
	return b, nil
}

// Changed lists the paths whose content, mode or existence differs from the
// baseline: the agent's changes, sorted, without .bh/.
//
// A path dirty at baseline is compared with its recorded bytes, so the
// user's own edits never count. Every other path counts when `git status`
// lists it, that is when it differs from the current HEAD. So if HEAD moved
// during the run (the agent, or the user, committed), those commits are
// history and are not reported again: only uncommitted changes are.
func (r *Repo) Changed(b *Baseline) ([]string, error) {
	st, err := r.status()
	if err != nil {
		return nil, fmt.Errorf("changed: %w", err)
	}
	set := map[string]bool{}
	for _, se := range st.Entries {
		if _, ok := b.Entries[se.Path]; ok || isBhPath(se.Path) || strings.HasSuffix(se.Path, "/") {
			continue
		}
		set[se.Path] = true
	}
	for p, e := range b.Entries {
		f, err := r.readFile(p)
		if err != nil {
			return nil, fmt.Errorf("changed: %w", err)
		}
		was, wasHash := e.state()
		if f.Exists != was.Exists || f.Exists && (!r.sameMode(f.Mode, was.Mode) || f.hash() != wasHash) {
			set[p] = true
		}
	}
	paths := make([]string, 0, len(set))
	for p := range set {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths, nil
}
