package store

import (
	"bufio"
	"encoding/binary"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unsafe"

	"github.com/bh-tracker/bh/task"
)

// A memo is the output of a command made from every task (bh list, ready,
// tree, in a pipe: what agents and scripts poll), kept under the git dir
// with the state of the files it was made from. While no task file, nor
// the folder or config.yaml, changed, the command prints it again: the
// cost of a stat of every file and no task decoded, sorted or printed.
// BenchmarkVsRelease measured it: bh list at 10k tasks costs about 40 %
// less CPU with it (issue 44).

// State is the task files as one listing found them: the folder's stamp,
// which names the files while it holds, their names, and a digest of their
// stamps and config.yaml's. The zero State vouches for nothing: a listing
// that met an unsettled stamp (see stamp.settled) or an unreadable file
// leaves it so.
type State struct {
	dir   stamp
	names []string
	sum   uint64
	until time.Time // the memo holds before it only (zero: for ever)
}

// Valid reports whether s can vouch for a later listing.
func (s State) Valid() bool { return s.names != nil }

// Until is s for an output that holds before at only (the time a
// scheduled task becomes ready); a zero at changes nothing.
func (s State) Until(at time.Time) State {
	s.until = at
	return s
}

// seen is every task file stamped by a memo that did not hold, handed to
// the listing that follows so that it need not stamp them again.
type seen struct {
	start  time.Time
	dir    stamp
	names  []string
	stamps []stamp
}

// ListMemo is name's memo for key, when it holds. Otherwise it is List
// (ListBrief, when brief) and the State that listing found, for SaveMemo.
func (s *Store) ListMemo(name, key string, brief bool) (memo []byte, tasks []*task.Task, bad []error, st State, err error) {
	memo, pre := s.memo(name, key)
	if memo != nil {
		return memo, nil, nil, State{}, nil
	}
	tasks, bad, r, err := s.listFrom(brief, pre)
	if err != nil {
		return nil, nil, nil, State{}, err
	}
	return nil, tasks, bad, s.state(r.l), nil
}

// state is the listing's State, the zero one unless every file was read
// and every stamp, the folder's too, had settled.
func (s *Store) state(l *listing) State {
	if l == nil || !l.dirOK || !l.dir.settled(l.start) || len(l.bad) > 0 {
		return State{}
	}
	sum, ok := s.digest(l.start, l.stamps)
	if !ok {
		return State{}
	}
	names := l.names
	if names == nil {
		names = []string{}
	}
	return State{dir: l.dir, names: names, sum: sum}
}

// digest sums stamps and config.yaml's, when all are there and settled
// before start.
func (s *Store) digest(start time.Time, stamps []stamp) (uint64, bool) {
	var c, ieee uint32
	var e enc
	e.b = make([]byte, 0, 16<<10) // summed a piece at a time
	flush := func() {
		c, ieee = crc32.Update(c, castagnoli(), e.b), crc32.Update(ieee, crc32.IEEETable, e.b)
		e.b = e.b[:0]
	}
	for _, st := range stamps {
		if !st.settled(start) { // gone too
			return 0, false
		}
		if e.stamp(st); len(e.b) == cap(e.b) {
			flush()
		}
	}
	cfg := gone
	if f, err := os.Open(s.ConfigPath()); err == nil {
		cfg, _ = dirStamp(f) // an fstat: any open file will do
		f.Close()
	}
	if cfg != gone && !cfg.settled(start) {
		return 0, false
	}
	e.stamp(cfg)
	flush()
	return uint64(c)<<32 | uint64(ieee), true
}

const memoMagic = "bhmemo3\n"

func (s *Store) memoPath(name string) string { return s.Local("cache", "memo-"+name+".bin") }

// SaveMemo keeps out as name's memo for key, made from the files as st
// found them. A State that vouches for nothing keeps nothing.
func (s *Store) SaveMemo(name, key string, st State, out []byte) error {
	if !st.Valid() {
		return nil
	}
	return saveCacheFile(s.memoPath(name), func(f *os.File) error {
		w := bufio.NewWriterSize(f, 64<<10)
		sum := crc32.New(castagnoli())
		all := io.MultiWriter(w, sum)
		var e enc
		e.b = append(e.b, memoMagic...)
		e.str(key)
		e.time(st.until)
		e.stamp(st.dir)
		e.uint(st.sum)
		e.str(strings.Join(st.names, "\n"))
		e.uint(uint64(len(out)))
		all.Write(e.b)
		all.Write(out)
		w.Write(binary.LittleEndian.AppendUint32(nil, sum.Sum32()))
		return w.Flush() // the bufio writer keeps the first error
	})
}

// memo is name's memo for key, when it holds: no task file, nor the
// folder or config.yaml, changed since it was kept. When it does not, but
// the folder kept its stamp, the files stamped to find out.
func (s *Store) memo(name, key string) ([]byte, *seen) {
	f, err := s.openCache(s.memoPath(name))
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	b := f.bytes(0, f.size)
	if len(b) < len(memoMagic)+4 || string(b[:len(memoMagic)]) != memoMagic {
		return nil, nil
	}
	body := b[:len(b)-4]
	d := &dec{s: unsafe.String(unsafe.SliceData(body), len(body)), i: len(memoMagic)}
	if !d.memoFor(key, s.Now()) {
		return nil, nil // another command line's, or out of time: not checked, nothing stamped
	}
	if crc32.Checksum(body, castagnoli()) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, nil
	}
	dir, sum, names, out := d.stamp(), d.uint(), d.str(), d.str()
	if d.bad || d.i != len(d.s) {
		return nil, nil
	}
	at := &seen{start: time.Now()}
	tasks, err := os.Open(filepath.Join(s.Dir, "tasks"))
	if err != nil {
		return nil, nil
	}
	defer tasks.Close()
	// While the folder keeps its stamp, it holds the same names.
	if now, ok := dirStamp(tasks); !ok || now != dir {
		return nil, nil
	}
	at.dir, at.names = dir, []string{}
	if names != "" {
		at.names = strings.Split(names, "\n")
	}
	at.stamps = statAll(tasks, at.names)
	if got, ok := s.digest(at.start, at.stamps); !ok || got != sum {
		return nil, at
	}
	if out == "" {
		return []byte{}, nil // still a memo
	}
	return unsafe.Slice(unsafe.StringData(out), len(out)), nil // only read
}

// memoFor reads a memo's head: whether it is key's, and holds at now.
func (d *dec) memoFor(key string, now time.Time) bool {
	if d.str() != key {
		return false
	}
	until := d.time()
	return until.IsZero() || now.Before(until)
}
