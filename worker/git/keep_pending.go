package git

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// Copies bh wrote but has not put in the keep's tree yet. Building the
// tree and swapping the ref on every write cost bh add about 10 ms of its
// 27 at 10k tasks (a run with keeping switched off, side by side, on the
// 2-core VM); a pending copy is one small file in the git dir, out of git
// clean's and git gc's reach. They are folded into the tree in one write
// once foldAt have gathered, and by every Record (bh doctor, the check
// that takes in what came by the user's git).
//
// Each is a file of its own, named <unix nanoseconds>-<pid>-<n>.<rel,
// escaped>, holding the data (a name ending in ".gone" forgets rel): no
// two writers share a file, a reader never sees half of one (written
// aside, then renamed in), and a fold removes exactly what it read.
const foldAt = 64

var pendingSeq atomic.Uint64

type pendingCopy struct {
	name string // the file's name in the pending folder
	rel  string
	data []byte // nil: forget rel
}

func (k *Keep) pendingDir() string { return filepath.Join(k.r.commonDir, "bh", "keep-pending") }

// Note keeps data as rel (forgets rel when data is nil), lazily.
func (k *Keep) Note(rel string, data []byte) error {
	dir := k.pendingDir()
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		err = os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return fmt.Errorf("keep %s: %w", rel, err)
	}
	name := fmt.Sprintf("%020d-%d-%d.%s", time.Now().UnixNano(), os.Getpid(), pendingSeq.Add(1), url.PathEscape(rel))
	if data == nil {
		name += ".gone"
	}
	if err := writeSpare(dir, ents, filepath.Join(dir, name), data); err != nil {
		return fmt.Errorf("keep %s: %w", rel, err)
	}
	if pendingCount(ents)+1 >= foldAt {
		return k.Record(nil)
	}
	return nil
}

// A fold leaves the files it read as spares (".spare-…"), and a pending
// copy is written into one of them, renamed aside, rather than a new
// file: on ext4, in a file system where files come and go (a worker's,
// a test suite's), making an inode searched past every one deleted in
// the last moments, 0.45 ms of bh add's 10 at 10k tasks (perf).
const sparePrefix = ".spare-"

// spare is a file to write a pending copy in, under a name of its own:
// a spare of ents taken, or a new one.
func spare(dir string, ents []os.DirEntry) (*os.File, error) {
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), sparePrefix) {
			continue
		}
		tmp := filepath.Join(dir, fmt.Sprintf(".tmp-%d-%d", os.Getpid(), pendingSeq.Add(1)))
		if os.Rename(filepath.Join(dir, e.Name()), tmp) != nil {
			continue // another bh took it
		}
		if f, err := os.OpenFile(tmp, os.O_WRONLY|syscall.O_NOFOLLOW, 0); err == nil {
			if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Sys().(*syscall.Stat_t).Nlink == 1 {
				return f, nil // bh's own: never a link to a file elsewhere
			}
			f.Close()
		}
		os.Remove(tmp)
	}
	return os.CreateTemp(dir, ".tmp-*")
}

// writeSpare writes data into a spare of ents (or a new file) and renames
// it to path.
func writeSpare(dir string, ents []os.DirEntry, path string, data []byte) error {
	tmp, err := spare(dir, ents)
	if err != nil {
		return err
	}
	_, err = tmp.WriteAt(data, 0)
	if err == nil {
		err = tmp.Truncate(int64(len(data)))
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// pendingCount is how many of ents are pending copies.
func pendingCount(ents []os.DirEntry) int {
	n := 0
	for _, e := range ents {
		if _, _, ok := pendingName(e.Name()); ok {
			n++
		}
	}
	return n
}

// pending are the pending copies, oldest first.
func (k *Keep) pending() ([]pendingCopy, error) {
	ents, err := os.ReadDir(k.pendingDir())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read bh's pending copies: %w", err)
	}
	var out []pendingCopy // ReadDir's order, by name: oldest first
	for _, e := range ents {
		rel, gone, ok := pendingName(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		p := pendingCopy{name: e.Name(), rel: rel}
		if !gone {
			if p.data, err = os.ReadFile(filepath.Join(k.pendingDir(), p.name)); err != nil {
				continue // folded meanwhile
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// pendingName is the store file a pending copy's name is of, and whether
// it forgets it; not ok for a file being written (".tmp-…").
func pendingName(name string) (rel string, gone, ok bool) {
	_, esc, ok := strings.Cut(name, ".")
	if !ok || strings.HasPrefix(name, ".") {
		return "", false, false
	}
	gone = strings.HasSuffix(esc, ".gone")
	rel, err := url.PathUnescape(strings.TrimSuffix(esc, ".gone"))
	return rel, gone, err == nil
}

// newestPending is the newest pending copy of rel; ok is false when there
// is none, data nil when rel is to be forgotten.
func newestPending(ps []pendingCopy, rel string) (data []byte, ok bool) {
	for i := len(ps) - 1; i >= 0; i-- {
		if ps[i].rel == rel {
			return ps[i].data, true
		}
	}
	return nil, false
}

// dropPending removes the pending copies a fold put in the tree: up to
// foldAt of them are kept as spares.
func (k *Keep) dropPending(ps []pendingCopy) {
	for i, p := range ps {
		path := filepath.Join(k.pendingDir(), p.name)
		if i >= foldAt || os.Rename(path, filepath.Join(k.pendingDir(), sparePrefix+p.name)) != nil {
			os.Remove(path)
		}
	}
}
