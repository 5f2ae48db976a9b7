package store

import (
	"bufio"
	"encoding/binary"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"unsafe"

	"github.com/bh-tracker/bh/task"
)

// The list cache, .git/bh/cache/tasks.bin, is local and disposable: every task
// as last read, with the stamp its file had then. List trusts an entry only
// while the file's stamp is unchanged and settled; a cache that is stale,
// torn, corrupt or from another version of bh is ignored and rebuilt.
//
// Layout: a header of cacheHeader bytes (magic, cacheLayout, the entry
// count, the records' length, and the CRC-32C of the records and of the
// index), then the records, then the index: the tasks folder's stamp and
// whether it had settled, and the entries sorted by ID, each with its file's
// stamp, whether that settled, and its record's length. The index comes
// last so that the records can be streamed out before it, and is read
// first: while the folder keeps its stamp it names the files to stat, with
// no read of the folder, as the records load.

const cacheMagic = "bhcache6" // the digit is the format: bump it with the codec

const cacheHeader = 40

// castagnoli is made on first use: every bh command pays for package
// initialisation, and most never list.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

type cacheEntry struct {
	id      string
	st      stamp
	settled bool       // see stamp.settled
	rec     string     // the encoded task; empty for a file that did not parse
	task    *task.Task // the task to encode when rec is not known yet
	recLen  int        // rec's length, known from the index before rec is read
}

type listCache struct {
	dir        stamp // the tasks folder's, taken before it was read
	dirSettled bool
	entries    []cacheEntry
	recs       int64 // the records' length (see useRecords)
}

func (s *Store) cachePath() string { return s.Local("cache", "tasks.bin") }

// cacheFile is an open cache, read with ReadAt, or mapped whole on its
// first read when the store is Mapped.
type cacheFile struct {
	*os.File
	size   int64
	mapped bool
	once   sync.Once // records and loadIndex read at once
	m      []byte    // the mapping, once made
}

func (s *Store) openCache(path string) (*cacheFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &cacheFile{File: f, size: fi.Size(), mapped: s.Mapped}, nil
}

// bytes are the n bytes at off, or nil when the file is shorter. Nothing
// writes to them again: decoded strings point into them.
func (f *cacheFile) bytes(off, n int64) []byte {
	if off < 0 || n < 0 || off+n > f.size {
		return nil
	}
	if f.mapped && f.size > 0 {
		// Never unmapped: Mapped is for a process that exits after one
		// command. bh writes a cache by renaming a new file over it, so
		// what is mapped is never cut short.
		f.once.Do(func() {
			f.m, _ = syscall.Mmap(int(f.Fd()), 0, int(f.size), syscall.PROT_READ, syscall.MAP_SHARED)
		})
	}
	if f.m != nil {
		return f.m[off : off+n : off+n]
	}
	b := make([]byte, n)
	if _, err := f.ReadAt(b, off); err != nil {
		return nil
	}
	return b
}

// loadIndex reads the header and the index of an open cache: the entries
// without their records. It returns nil for an unusable cache.
func loadIndex(f *cacheFile) *listCache {
	h := f.bytes(0, cacheHeader)
	if h == nil || string(h[:8]) != cacheMagic || binary.LittleEndian.Uint64(h[8:]) != cacheLayout {
		return nil
	}
	n, recs := binary.LittleEndian.Uint64(h[16:]), int64(binary.LittleEndian.Uint64(h[24:]))
	b := f.bytes(cacheHeader+recs, f.size-cacheHeader-recs)
	if b == nil || crc32.Checksum(b, castagnoli()) != binary.LittleEndian.Uint32(h[36:]) || n > uint64(len(b)) {
		return nil
	}
	d := &dec{s: unsafe.String(unsafe.SliceData(b), len(b))}
	c := &listCache{recs: recs}
	c.dir, c.dirSettled = d.stamp(), d.bool()
	if !c.readEntries(d, n) {
		return nil
	}
	return c
}

// readEntries decodes the n entries of the index, and reports whether
// they are sorted, whole, and add up to the records.
func (c *listCache) readEntries(d *dec, n uint64) bool {
	c.entries = make([]cacheEntry, n)
	total := int64(0)
	for i := range c.entries {
		e := &c.entries[i]
		e.id, e.st, e.settled = d.str(), d.stamp(), d.bool()
		e.recLen = int(d.uint())
		total += int64(e.recLen)
		if d.bad || e.recLen < 0 || total > c.recs || i > 0 && e.id <= c.entries[i-1].id {
			return false
		}
	}
	return !d.bad && d.i == len(d.s) && total == c.recs
}

// records reads the records whole, or returns nil. It needs only the
// header, so that it can run while loadIndex does.
func (f *cacheFile) records() []byte {
	h := f.bytes(0, cacheHeader)
	if h == nil {
		return nil
	}
	b := f.bytes(cacheHeader, int64(binary.LittleEndian.Uint64(h[24:])))
	if b == nil || crc32.Checksum(b, castagnoli()) != binary.LittleEndian.Uint32(h[32:]) {
		return nil
	}
	return b
}

// useRecords gives the entries loadIndex found their records, from what
// records read, and reports whether they fit.
func (c *listCache) useRecords(b []byte) bool {
	if b == nil || int64(len(b)) != c.recs {
		return false
	}
	s := unsafe.String(unsafe.SliceData(b), len(b))
	for i := range c.entries {
		e := &c.entries[i]
		e.rec, s = s[:e.recLen], s[e.recLen:]
	}
	return true
}

// ids are the entries' IDs, sorted.
func (c *listCache) ids() []string {
	ids := make([]string, len(c.entries))
	for i, e := range c.entries {
		ids[i] = e.id
	}
	return ids
}

// save writes the cache (see saveCacheFile). It streams: at 100k tasks a
// cache built in memory first was 43 MB more at the listing's peak.
func (c *listCache) save(path string) error { return saveCacheFile(path, c.write) }

// saveCacheFile writes a file of the cache (Local) atomically. No fsync: after a
// crash a torn file fails its checksum and is made again. A killed bh's
// temporary file (.<name>.*) is StaleTemp's.
func saveCacheFile(path string, write func(*os.File) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // a no-op after the rename
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// write writes the cache to f: the records, the index, then the header
// with the checksums.
func (c *listCache) write(f *os.File) error {
	w := bufio.NewWriterSize(f, 256<<10)
	if _, err := w.Write(make([]byte, cacheHeader)); err != nil {
		return err
	}
	lens := make([]int, len(c.entries))
	recSum := crc32.New(castagnoli())
	records := io.MultiWriter(w, recSum)
	var rec enc
	recs := 0
	for i, x := range c.entries {
		r := unsafe.Slice(unsafe.StringData(x.rec), len(x.rec)) // only read
		if t := x.task; len(r) == 0 && t != nil {
			rec.b = rec.b[:0]
			encodeTask(&rec, t)
			r = rec.b
		}
		if _, err := records.Write(r); err != nil {
			return err
		}
		lens[i] = len(r)
		recs += len(r)
	}
	var e enc
	e.stamp(c.dir)
	e.bool(c.dirSettled)
	for i, x := range c.entries {
		e.str(x.id)
		e.stamp(x.st)
		e.bool(x.settled)
		e.uint(uint64(lens[i]))
	}
	if _, err := w.Write(e.b); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	hdr := make([]byte, cacheHeader)
	copy(hdr, cacheMagic)
	binary.LittleEndian.PutUint64(hdr[8:], cacheLayout)
	binary.LittleEndian.PutUint64(hdr[16:], uint64(len(c.entries)))
	binary.LittleEndian.PutUint64(hdr[24:], uint64(recs))
	binary.LittleEndian.PutUint32(hdr[32:], recSum.Sum32())
	binary.LittleEndian.PutUint32(hdr[36:], crc32.Checksum(e.b, castagnoli()))
	_, err := f.WriteAt(hdr, 0)
	return err
}

// Stamps are fixed-width: a warm list decodes one per task before its
// first stat, and varints of nanoseconds cost ten steps each.
func (e *enc) stamp(st stamp) {
	for _, v := range [...]uint64{uint64(st.size), uint64(st.mtime), uint64(st.ctime), st.ino} {
		e.b = binary.LittleEndian.AppendUint64(e.b, v)
	}
}

func (d *dec) stamp() stamp {
	if len(d.s)-d.i < 32 {
		d.bad = true
		return gone
	}
	b := d.s[d.i : d.i+32]
	d.i += 32
	u := func(k int) uint64 {
		return uint64(b[k]) | uint64(b[k+1])<<8 | uint64(b[k+2])<<16 | uint64(b[k+3])<<24 |
			uint64(b[k+4])<<32 | uint64(b[k+5])<<40 | uint64(b[k+6])<<48 | uint64(b[k+7])<<56
	}
	return stamp{size: int64(u(0)), mtime: int64(u(8)), ctime: int64(u(16)), ino: u(24)}
}
