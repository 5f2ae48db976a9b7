package git

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/gofrs/flock"
)

// KeepRef holds bh's own copy of the store's files (tasks/<id>.yaml and
// config.yaml, relative to .bh) as bh last wrote them: a tree on no
// branch, never pushed, so that a file the user's git removes or takes
// back (git clean, git stash -u, git reset --hard) can be noticed and put
// back. The ref names the tree itself, not a commit (one object less for
// every bh add): only the newest copies are kept alive, and gc keeps them.
const KeepRef = "refs/bh/local/store"

// Keep is the store's copy under KeepRef. Its methods run no git process
// in a plain repository: bh add writes through it on every task.
type Keep struct {
	r   *Repo
	Dir string // the store's folder inside the tree: ".bh"
}

// OpenKeep opens the keep of the store at root/.bh.
func OpenKeep(root string) (*Keep, error) {
	r, err := openPlain(root)
	if err != nil {
		return nil, err
	}
	return &Keep{r: r, Dir: ".bh"}, nil
}

// keptPath is where a store file sits in the keep's tree. Task files are
// spread over folders by the last character of their id (tasks.2/tm-ab12.yaml),
// beside config.yaml, so that a write makes few objects (blob, folder,
// root, commit), each small even in a store of 100k tasks.
func keptPath(rel string) string {
	name, ok := strings.CutPrefix(rel, "tasks/")
	if !ok || strings.Contains(name, "/") {
		return rel
	}
	id := strings.TrimSuffix(name, ".yaml")
	shard := "_"
	if id != "" {
		shard = id[len(id)-1:]
	}
	return "tasks." + shard + "/" + name
}

// storePath is keptPath undone.
func storePath(kept string) string {
	if dir, name, ok := strings.Cut(kept, "/"); ok && strings.HasPrefix(dir, "tasks.") {
		return "tasks/" + name
	}
	return kept
}

var keepMu sync.Mutex

// Record keeps files (data nil: bh removed it on purpose, so it is
// forgotten), relative to the store's folder, now, with every pending copy
// (keep_pending.go) folded in: files, being newer, win over those.
func (k *Keep) Record(files map[string][]byte) error {
	keepMu.Lock() // go-git's object writes are not safe for goroutines; other processes: the swap
	defer keepMu.Unlock()
	unlock, err := k.lockFold()
	if err != nil {
		return err
	}
	defer unlock()
	ps, err := k.pending()
	if err != nil {
		return err
	}
	changes, err := k.changes(ps, files)
	if err != nil || len(changes) == 0 {
		return err
	}
	if err := k.swapTree(changes); err != nil {
		return err
	}
	k.dropPending(ps)
	return nil
}

// swapTree applies changes to the keep's tree, by compare and swap of its
// ref: other bh processes keep their files too.
func (k *Keep) swapTree(changes map[string]treeChange) error {
	var err error
	for range 100 {
		var base *object.Tree
		if base, err = k.tree(); err != nil {
			return err
		}
		old := ""
		if base != nil {
			old = base.Hash.String()
		}
		var tree plumbing.Hash
		if tree, err = k.r.buildTree(base, changes); err != nil || base != nil && base.Hash == tree {
			return err
		}
		if err = k.r.swapRef(KeepRef, tree.String(), old); !errors.Is(err, ErrStale) {
			return err
		}
	}
	return fmt.Errorf("keep: %w", err)
}

// changes are the tree's changes for the pending copies ps and files,
// which are newer; their blobs written.
func (k *Keep) changes(ps []pendingCopy, files map[string][]byte) (map[string]treeChange, error) {
	all := map[string][]byte{}
	for _, p := range ps {
		all[p.rel] = p.data
	}
	maps.Copy(all, files)
	changes := map[string]treeChange{}
	for rel, data := range all {
		if data == nil {
			changes[keptPath(rel)] = treeChange{Delete: true}
			continue
		}
		h, err := k.r.writeBlob(data)
		if err != nil {
			return nil, fmt.Errorf("keep %s: %w", rel, err)
		}
		changes[keptPath(rel)] = treeChange{Mode: filemode.Regular, Hash: h}
	}
	return changes, nil
}

// lockFold makes this process the only one folding pending copies into
// the tree (two folds at once could put an older copy over a newer one),
// by a flock beside them: it goes with its process, so a bh killed while
// folding holds nobody up (a lock file of its own was waited out for 10 s,
// keepMu held all along). A live holder is waited for, within a bound.
func (k *Keep) lockFold() (func(), error) {
	lock := filepath.Join(k.r.commonDir, "bh", "keep-fold.lock")
	if err := os.MkdirAll(filepath.Dir(lock), 0o755); err != nil {
		return nil, fmt.Errorf("keep: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), foldWait)
	defer cancel()
	l := flock.New(lock)
	if ok, err := l.TryLockContext(ctx, time.Millisecond); !ok {
		return nil, fmt.Errorf("keep: %s is held: %w", lock, cmp.Or(err, ctx.Err()))
	}
	return func() { l.Unlock() }, nil
}

// foldWait bounds the wait for another bh's fold, a few writes long.
const foldWait = 10 * time.Second

// Files lists what the keep holds, by path relative to the store's
// folder, pending copies included.
func (k *Keep) Files() (map[string]string, error) {
	keepMu.Lock()
	defer keepMu.Unlock()
	ps, err := k.pending()
	if err != nil {
		return nil, err
	}
	t, err := k.tree()
	if err != nil {
		return nil, err
	}
	files := map[string]string{}
	if t != nil {
		// The entries' hashes are all a comparison needs: walking the
		// trees reads no blob (t.Files() reads every one, 10k of them,
		// from the pack: 0.5 s a command after a change behind bh's back).
		w := object.NewTreeWalker(t, true, nil)
		defer w.Close()
		for {
			name, e, err := w.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", KeepRef, err)
			}
			if e.Mode.IsFile() {
				files[storePath(name)] = e.Hash.String()
			}
		}
	}
	overlay(files, ps)
	return files, nil
}

// overlay puts the pending copies ps over the kept files, newest last.
func overlay(files map[string]string, ps []pendingCopy) {
	for _, p := range ps {
		if p.data == nil {
			delete(files, p.rel)
		} else {
			files[p.rel] = BlobOf(p.data)
		}
	}
}

// Read is a kept file's content, by the hash Files gave.
func (k *Keep) Read(blob string) ([]byte, error) {
	keepMu.Lock()
	defer keepMu.Unlock()
	data, err := k.r.readBlob(plumbing.NewHash(blob))
	if err == nil {
		return data, nil
	}
	if ps, perr := k.pending(); perr == nil {
		for _, p := range ps {
			if p.data != nil && BlobOf(p.data) == blob {
				return p.data, nil
			}
		}
	}
	return nil, err
}

// BlobOf is the hash git gives data as a blob.
func BlobOf(data []byte) string {
	return plumbing.ComputeHash(plumbing.BlobObject, data).String()
}

// keepHistory bounds how far back Safe looks on the checked-out branch.
const keepHistory = 100

// Safe reports whether git holds blob as the store file rel on a branch:
// at the tip of a local branch (the user checked out another), or in the
// recent history of HEAD (a commit removed or changed it on purpose).
// Such a file is not lost, whatever the tree holds now.
func (k *Keep) Safe(rel, blob string) bool {
	keepMu.Lock()
	defer keepMu.Unlock()
	p := k.Dir + "/" + rel
	want := plumbing.NewHash(blob)
	at := func(c *object.Commit) bool {
		t, err := c.Tree()
		if err != nil {
			return false
		}
		e, ok := treeFile(t, p)
		return ok && e.Hash == want
	}
	st := k.r.storage()
	refs, err := st.IterReferences()
	if err == nil {
		found := false
		_ = refs.ForEach(func(ref *plumbing.Reference) error {
			if !ref.Name().IsBranch() || ref.Type() != plumbing.HashReference {
				return nil
			}
			if c, err := object.GetCommit(st, ref.Hash()); err == nil && at(c) {
				found = true
				return storer.ErrStop
			}
			return nil
		})
		if found {
			return true
		}
	}
	head, err := k.r.Head()
	for i := 0; err == nil && head != "" && i < keepHistory; i++ {
		var c *object.Commit
		if c, err = object.GetCommit(st, plumbing.NewHash(head)); err != nil {
			break
		}
		if at(c) {
			return true
		}
		head = ""
		if len(c.ParentHashes) > 0 {
			head = c.ParentHashes[0].String()
		}
	}
	return false
}

// swapRef points bh's ref at commit if it still points at old ("" for
// none), by git's own lock-file protocol (ref.lock, then a rename), without
// a git process: ErrStale when another moved it first. Where refs are not
// files (reftable), git does it.
func (r *Repo) swapRef(ref, commit, old string) error {
	if err := bhRef(ref); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(r.commonDir, "reftable")); err == nil {
		if _, err := r.Write(nil, "update-ref", ref, commit, cmp.Or(old, plumbing.ZeroHash.String())); err != nil {
			return fmt.Errorf("%w: %v", ErrStale, err)
		}
		return nil
	}
	p := filepath.Join(r.commonDir, filepath.FromSlash(ref))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	lock := p + ".lock"
	f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		// Another bh between two lines, or one killed there: a lock
		// older than any write is stale.
		if fi, serr := os.Stat(lock); serr == nil && time.Since(fi.ModTime()) > 10*time.Second {
			os.Remove(lock)
		}
		time.Sleep(time.Millisecond)
		return ErrStale
	}
	if err != nil {
		return err
	}
	defer os.Remove(lock) // a no-op after the rename
	cur, err := r.Ref(ref)
	if err == nil && cur != old {
		err = ErrStale
	}
	if err == nil {
		_, err = f.WriteString(commit + "\n")
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(lock, p)
	}
	return err
}

// StampPath is a file of bh's in the git dir (out of git clean's reach)
// where the keeper notes how the store's folders stood when last checked.
func (k *Keep) StampPath() string { return filepath.Join(k.r.commonDir, "bh-keep-stamp") }

// Lookup is the blob bh keeps as the store file rel, "" when none: its
// pending copies, then two small trees read, not the whole keep.
func (k *Keep) Lookup(rel string) (string, error) {
	keepMu.Lock()
	defer keepMu.Unlock()
	ps, err := k.pending()
	if err != nil {
		return "", err
	}
	if data, ok := newestPending(ps, rel); ok {
		if data == nil {
			return "", nil
		}
		return BlobOf(data), nil
	}
	t, err := k.tree()
	if e, ok := treeFile(t, keptPath(rel)); ok {
		return e.Hash.String(), nil
	}
	return "", err
}

// tree is the keep's tree, nil when nothing is kept yet.
func (k *Keep) tree() (*object.Tree, error) {
	tip, err := k.r.Ref(KeepRef)
	if err != nil || tip == "" {
		return nil, err
	}
	t, err := object.GetTree(k.r.storage(), plumbing.NewHash(tip))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", KeepRef, err)
	}
	return t, nil
}

// IndexBlobs are the blobs git's index holds for the store's files
// (merged, plain files), by path relative to the store's folder: git ls-files,
// 1-2 ms at 10k tasks.
func (k *Keep) IndexBlobs() (map[string]string, error) {
	staged, err := k.r.Read(nil, "ls-files", "-s", "-z", "--", k.Dir)
	if err != nil {
		return nil, fmt.Errorf("list the store's files in git's index: %w", err)
	}
	out := map[string]string{}
	for _, line := range SplitNul(staged) {
		path, blob, ok := stagedFile(line)
		if rel, in := strings.CutPrefix(path, k.Dir+"/"); ok && in {
			out[rel] = blob
		}
	}
	return out, nil
}

// ChangedFromIndex are the store's files the tree holds otherwise than
// git's index, by git's own check of their stat data (git diff-files), by
// path relative to the store's folder. Until the user's git next writes
// the index, a fresh clone's files are all racily clean and git hashes
// each: 60-130 ms of CPU at 10k tasks.
func (k *Keep) ChangedFromIndex() (map[string]bool, error) {
	changed, err := k.r.Read(nil, "diff-files", "--name-only", "-z", "--", k.Dir)
	if err != nil {
		return nil, fmt.Errorf("compare the store's files with git's index: %w", err)
	}
	out := map[string]bool{}
	for _, p := range SplitNul(changed) {
		if rel, in := strings.CutPrefix(p, k.Dir+"/"); in {
			out[rel] = true
		}
	}
	return out, nil
}

// stagedFile is a line of ls-files -s (<mode> SP <object> SP <stage> TAB
// <file>): a plain file's path and blob, merged (stage 0).
func stagedFile(line string) (path, blob string, ok bool) {
	meta, path, ok := strings.Cut(line, "\t")
	f := strings.Fields(meta)
	if !ok || len(f) != 3 || f[0] != "100644" || f[2] != "0" {
		return "", "", false
	}
	return path, f[1], true
}
