// Package git is the plumbing of everything bh does to the user's git
// repository: running git, objects and refs, and the task worktrees. What
// writes the user's own checkout or index (and takes its index.lock) is
// usertree's alone.
//
// The git binary does whatever touches the index, the working tree or the
// user's refs: it honours the user's ignore rules, filters, hooks and
// locks. go-git reads objects and writes objects git would write byte for
// byte, never a ref outside refs/bh/, never the index (README.md's "Git,
// carefully" says why).
//
// Paths are repository-relative with forward slashes, as git prints them
// with -z: spaces, newlines and non-ASCII names need no quoting.
package git

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// Repo is a git working tree.
type Repo struct {
	Root string // top level of the working tree

	gitDir    string // this worktree's git dir: HEAD, MERGE_HEAD, index
	commonDir string // objects and refs, shared by all worktrees

	storeOnce sync.Once
	store     *objectStore
	refsOnce  sync.Once
	refs      *filesystem.Storage // refs only: reads no pack index

	// LockBound is how long a git step waits for a lock another git
	// process holds (0: DefaultLockBound).
	LockBound time.Duration
	Hooks     Hooks

	// wtMu serializes git worktree add, list and remove: git reads every
	// worktree's admin dir, and fails on one another git is making or removing.
	wtMu sync.Mutex
	// listing is the worktree listing a step shares (see ShareListing),
	// one for the repository and its worktrees' Repos.
	listing *listing

	// main is the main repository of a task worktree's Repo, whose every
	// command runs guarded (see guard), nil for the main one; branch is
	// the worktree's, when known.
	main     *Repo
	branch   string
	userPins *userPins // the main repository's (see pins)
}

// Open finds the repository containing dir.
func Open(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open repository: %w", err)
	}
	out, err := (*Repo)(nil).Run(abs, Env("LC_ALL=C"), nil, "rev-parse", "--show-toplevel", "--absolute-git-dir",
		"--git-common-dir", "--show-object-format")
	if err != nil {
		if stderr, _ := Stderr(err); strings.Contains(stderr, "not a git repository") {
			return nil, fmt.Errorf("open repository: %s is not inside a git repository", abs)
		}
		return nil, fmt.Errorf("open repository %s: %w", abs, err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 4 {
		return nil, fmt.Errorf("open repository %s: unexpected rev-parse output %q", abs, out)
	}
	if lines[3] != "sha1" {
		return nil, fmt.Errorf("open repository %s: %s object format is not supported", abs, lines[3])
	}
	common := lines[2]
	if !filepath.IsAbs(common) {
		common = filepath.Join(abs, common)
	}
	return &Repo{Root: lines[0], gitDir: lines[1], commonDir: filepath.Clean(common), listing: &listing{},
		userPins: &userPins{}}, nil
}

// storage opens the object and ref store directly rather than through
// git.PlainOpen, which refuses repositories with extensions.worktreeConfig
// (go-git#1943); bh only needs objects and refs, which that extension leaves alone.
func (r *Repo) storage() *objectStore {
	r.storeOnce.Do(func() {
		r.store = &objectStore{Storage: filesystem.NewStorageWithOptions(osfs.New(r.commonDir),
			cache.NewObjectLRUDefault(), filesystem.Options{AlternatesFS: osfs.New("/")})}
		_ = r.store.HasEncodedObject(plumbing.ZeroHash) // the pack list read now, not by racing readers
	})
	return r.store
}

// refStorage reads refs alone. It loads no pack index, as storage does
// at once: bh show, whose only git read is whether the task has parked
// work, spent a tenth of its time decoding the index of a 10k-object pack.
func (r *Repo) refStorage() *filesystem.Storage {
	r.refsOnce.Do(func() {
		r.refs = filesystem.NewStorageWithOptions(osfs.New(r.commonDir), cache.NewObjectLRUDefault(),
			filesystem.Options{AlternatesFS: osfs.New("/")})
	})
	return r.refs
}

// objectStore is go-git's store, which lists the repository's packs once:
// objects git packs afterwards (a fetch, an automatic gc moving loose
// objects into a pack) would stay unseen, "object not found" for good in a
// long-running worker. A missing object is looked for again after a rescan.
// go-git's store is not safe for writers at once (each write resets its
// object list): a worker's runs, which each write their snapshot's trees
// and commits, take turns.
type objectStore struct {
	*filesystem.Storage
	mu sync.RWMutex // writes and the rescan against readers
}

func (s *objectStore) SetEncodedObject(o plumbing.EncodedObject) (plumbing.Hash, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Storage.SetEncodedObject(o)
}

func (s *objectStore) HasEncodedObject(h plumbing.Hash) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.Storage.HasEncodedObject(h)
}

func (s *objectStore) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	s.mu.RLock()
	o, err := s.Storage.EncodedObject(t, h)
	s.mu.RUnlock()
	if !errors.Is(err, plumbing.ErrObjectNotFound) {
		return o, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Reindex()
	return s.Storage.EncodedObject(t, h)
}

// Head returns the commit HEAD points to, or "" on an unborn branch. It
// reads HEAD and the refs in-process (no git process per call), and asks
// git when the refs are in a form go-git cannot read.
func (r *Repo) Head() (string, error) {
	data, err := os.ReadFile(filepath.Join(r.gitDir, "HEAD"))
	if err != nil {
		return "", fmt.Errorf("read HEAD: %w", err)
	}
	head := strings.TrimSpace(string(data))
	if target, ok := strings.CutPrefix(head, "ref: "); ok && target != "refs/heads/.invalid" {
		ref, err := storer.ResolveReference(r.refStorage(), plumbing.ReferenceName(target))
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			return "", nil
		}
		if err == nil {
			return ref.Hash().String(), nil
		}
	} else if plumbing.IsHash(head) {
		return head, nil
	}
	head, err = r.verify("HEAD^{commit}") // ref storage go-git does not know (reftable)
	if err != nil {
		return "", fmt.Errorf("read HEAD: %w", err)
	}
	return head, nil
}

// verify is the object rev names, "" when it names none.
func (r *Repo) verify(rev string) (string, error) {
	out, err := r.Read(nil, "rev-parse", "-q", "--verify", rev)
	if stderr, _ := Stderr(err); IsExit(err, 1) && strings.TrimSpace(stderr) == "" {
		return "", nil
	}
	return strings.TrimSpace(string(out)), err
}

// InProgressOp names the operation the user is in the middle of: "merge",
// "rebase", "am", "cherry-pick", "revert", "bisect", or "" when none.
// Committing for an agent in the middle of one would mix their work into it.
func (r *Repo) InProgressOp() (string, error) {
	op, err := OpInProgress(r.gitDir)
	if err != nil {
		return "", fmt.Errorf("check in-progress operation: %w", err)
	}
	return op, nil
}

// isBhPath reports whether p belongs to bh's own task files, which the worker
// commits and restores itself.
func isBhPath(p string) bool {
	return p == ".bh" || strings.HasPrefix(p, ".bh/")
}

// OpInProgress names the operation in progress in the worktree whose git
// dir is gitDir: "merge", "rebase", "am", "cherry-pick", "revert",
// "bisect", or "" when none.
func OpInProgress(gitDir string) (string, error) {
	checks := []struct{ file, op string }{
		{"rebase-merge", "rebase"},
		{"rebase-apply/applying", "am"},
		{"rebase-apply", "rebase"},
		{"MERGE_HEAD", "merge"},
		{"CHERRY_PICK_HEAD", "cherry-pick"},
		{"REVERT_HEAD", "revert"},
		{"BISECT_LOG", "bisect"},
	}
	for _, c := range checks {
		_, err := os.Lstat(filepath.Join(gitDir, c.file))
		if err == nil {
			return c.op, nil
		}
		if !os.IsNotExist(err) {
			return "", err
		}
	}
	return "", nil
}
