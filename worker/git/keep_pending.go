package git

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
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
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("keep %s: %w", rel, err)
	}
	name := fmt.Sprintf("%020d-%d-%d.%s", time.Now().UnixNano(), os.Getpid(), pendingSeq.Add(1), url.PathEscape(rel))
	if data == nil {
		name += ".gone"
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("keep %s: %w", rel, err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("keep %s: %w", rel, err)
	}
	if ents, err := os.ReadDir(dir); err == nil && len(ents) >= foldAt {
		return k.Record(nil)
	}
	return nil
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

// dropPending removes the pending copies a fold put in the tree.
func (k *Keep) dropPending(ps []pendingCopy) {
	for _, p := range ps {
		os.Remove(filepath.Join(k.pendingDir(), p.name))
	}
}
