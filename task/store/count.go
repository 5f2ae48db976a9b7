package store

import (
	"encoding/binary"
	"io"
	"os"
)

// taskCount is about how many tasks the store holds, for the length of a
// new ID. The list cache's header says it without a read of the folder,
// which costs bh add 86 ms at 100k tasks; without a cache, the folder is
// read. A count behind the store (tasks pulled since the last list) only
// makes IDs shorter than planned, and newID lengthens them when they
// collide.
func (s *Store) taskCount() (int, error) {
	if n, ok := cachedCount(s.cachePath()); ok {
		return n, nil
	}
	ids, err := s.ids()
	return len(ids), err
}

// cachedCount reads the entry count from a list cache's header, without
// checking the body: a count is a hint, not data.
func cachedCount(path string) (int, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	b := make([]byte, cacheHeader+3*binary.MaxVarintLen64)
	n, _ := io.ReadFull(f, b)
	b = b[:n]
	if len(b) < cacheHeader || string(b[:8]) != cacheMagic || binary.LittleEndian.Uint64(b[8:]) != cacheLayout {
		return 0, false
	}
	d := &dec{s: string(b[cacheHeader:])}
	d.uint()          // events
	d.uint()          // strings
	count := d.uint() // written as count+1, as slice lengths are
	return int(count) - 1, !d.bad && count > 0 && count < 1<<40
}
