package store

import (
	"bufio"
	"encoding/binary"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"
	"unsafe"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/internal/atomicfile"
)

// The list cache, .bh/cache/tasks.bin, is local and disposable: every task
// as last read, with the stamp its file had then. List trusts an entry only
// while the file's stamp is unchanged and settled; a cache that is stale,
// torn, corrupt or from another version of bh is ignored and rebuilt.
//
// Layout: magic (8 bytes), cacheLayout (8), CRC-32C of the body (4), then
// the body: the number of events and of strings in lists over all tasks,
// the entry count, and the entries sorted by ID, each with its file's
// stamp, whether that settled, and the task's record.

const cacheMagic = "bhcache3" // the digit is the format: bump it with the codec

const cacheHeader = 20

// castagnoli is made on first use: every bh command pays for package
// initialisation, and most never list.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

type cacheEntry struct {
	id      string
	st      stamp
	settled bool       // see stamp.settled
	rec     string     // the encoded task; empty for a file that did not parse
	task    *task.Task // the task to encode when rec is not known yet
}

type listCache struct {
	events  int // events and strings in all records, to size arenas
	strs    int
	entries []cacheEntry
}

func (s *Store) cachePath() string { return filepath.Join(s.Dir, "cache", "tasks.bin") }

// loadCache returns nil for a missing or unusable cache.
func loadCache(path string) *listCache {
	b, err := readBig(path)
	if err != nil || len(b) < cacheHeader || string(b[:8]) != cacheMagic ||
		binary.LittleEndian.Uint64(b[8:]) != cacheLayout {
		return nil
	}
	body := b[cacheHeader:]
	if crc32.Checksum(body, castagnoli()) != binary.LittleEndian.Uint32(b[16:]) {
		return nil
	}
	// Decoded tasks point into body, which nothing writes to again.
	d := &dec{s: unsafe.String(unsafe.SliceData(body), len(body))}
	c := &listCache{}
	c.events, _ = d.count() // counts bounded by the size, as for slices
	c.strs, _ = d.count()
	n, _ := d.count()
	c.entries = bigSlice[cacheEntry](n)
	for i := range c.entries {
		e := &c.entries[i]
		e.id, e.st, e.settled, e.rec = d.str(), d.stamp(), d.bool(), d.str()
		if d.bad || i > 0 && e.id <= c.entries[i-1].id {
			return nil
		}
	}
	if d.bad || d.i != len(d.s) {
		return nil
	}
	return c
}

// readBig is os.ReadFile into a bigSlice.
func readBig(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	b := bigSlice[byte](int(fi.Size()))
	n, err := io.ReadFull(f, b)
	if err == io.ErrUnexpectedEOF {
		err = nil // shorter than it was: the checksum will tell
	}
	return b[:n], err
}

// save writes the cache atomically. No fsync: after a crash a torn cache
// fails its checksum and is rebuilt. It streams: at 100k tasks a cache
// built in memory first was 43 MB more at the listing's peak.
func (c *listCache) save(path string) error {
	dir := filepath.Dir(path)
	if err := atomicfile.LocalDir(dir); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".tasks.bin.*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // a no-op after the rename
	err = c.write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// write writes the cache to f: the body, then the header with its checksum.
func (c *listCache) write(f *os.File) error {
	w := bufio.NewWriterSize(f, 256<<10)
	sum := crc32.New(castagnoli())
	body := io.MultiWriter(w, sum)
	if _, err := w.Write(make([]byte, cacheHeader)); err != nil {
		return err
	}
	events, strs := c.events, c.strs
	for _, x := range c.entries {
		if t := x.task; t != nil {
			events += len(t.History)
			strs += strCount(t)
		}
	}
	var e, rec enc
	e.count(events, false)
	e.count(strs, false)
	e.count(len(c.entries), false)
	for _, x := range c.entries {
		e.str(x.id)
		e.stamp(x.st)
		e.bool(x.settled)
		if x.rec != "" || x.task == nil {
			e.str(x.rec)
		} else {
			rec.b = rec.b[:0]
			encodeTask(&rec, x.task)
			e.uint(uint64(len(rec.b)))
			e.b = append(e.b, rec.b...)
		}
		if len(e.b) >= 64<<10 {
			if _, err := body.Write(e.b); err != nil {
				return err
			}
			e.b = e.b[:0]
		}
	}
	if _, err := body.Write(e.b); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	hdr := make([]byte, cacheHeader)
	copy(hdr, cacheMagic)
	binary.LittleEndian.PutUint64(hdr[8:], cacheLayout)
	binary.LittleEndian.PutUint32(hdr[16:], sum.Sum32())
	_, err := f.WriteAt(hdr, 0)
	return err
}

func (e *enc) stamp(st stamp) {
	e.int(st.size)
	e.int(st.mtime)
	e.int(st.ctime)
	e.uint(st.ino)
}

func (d *dec) stamp() stamp {
	return stamp{size: d.int(), mtime: d.int(), ctime: d.int(), ino: d.uint()}
}

// strCount is how many strings t keeps in lists, for sizing arenas.
func strCount(t *task.Task) int {
	n := len(t.DependsOn) + len(t.Labels) + len(t.Issues)
	for _, q := range t.Questions {
		n += len(q.Answer)
	}
	return n
}
