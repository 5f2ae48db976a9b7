package store

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/internal/tasktest"
)

// direct reads every task file without the cache: what List must equal.
func direct(t *testing.T, s *Store) []*task.Task {
	t.Helper()
	ids, err := s.IDs()
	if err != nil {
		t.Fatal(err)
	}
	var out []*task.Task
	for _, id := range ids {
		if tk, err := s.Get(id); err == nil {
			out = append(out, tk)
		}
	}
	return out
}

// listed lists s and checks the listing against the files themselves.
func listed(t *testing.T, s *Store, wantParsed int, wantBad int) listReport {
	t.Helper()
	tasks, bad, r, err := s.list(false)
	if err != nil {
		t.Fatal(err)
	}
	if want := direct(t, s); !reflect.DeepEqual(tasks, want) {
		t.Fatalf("list (%+v) differs from the files: %d tasks, want %d", r, len(tasks), len(want))
	}
	if r.parsed != wantParsed || len(bad) != wantBad {
		t.Fatalf("parsed %d files, %d bad (%v); want %d, %d", r.parsed, len(bad), bad, wantParsed, wantBad)
	}
	return r
}

func TestListCache(t *testing.T) {
	// Steps below rely on a file staying unsettled from one list to the
	// next: give them room on a busy machine, or under -race.
	defer func(d time.Duration) { racySlack = d }(racySlack)
	racySlack = 600 * time.Millisecond
	s := newStore(t)
	writeStore(t, s, 40) // the cache is rewritten once more than 8 files are stale
	settle()
	if r := listed(t, s, 40, 0); !r.saved {
		t.Fatalf("cold list: %+v", r)
	}
	if r := listed(t, s, 0, 0); r.saved || r.readDir {
		t.Fatalf("warm list: %+v", r)
	}

	// An in-place edit of the same size with the old mtime put back: only
	// ctime tells, and the file is read until the cache is rewritten.
	p := s.Path(tasktest.GenID(3))
	fi, _ := os.Stat(p)
	writeFile(t, p, strings.Replace(string(readFile(t, p)), "Task 3:", "Task X:", 1))
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	for range 2 {
		if r := listed(t, s, 1, 0); r.saved || r.readDir {
			t.Fatalf("after an in-place edit: %+v", r)
		}
	}

	// Deleted, added, and a file that stops parsing: few, so read each time.
	os.Remove(s.Path(tasktest.GenID(5)))
	writeStoreFrom(t, s, 40, 42)
	writeFile(t, s.Path(tasktest.GenID(7)), "id: "+tasktest.GenID(7)+"\ntitle: [\n")
	if r := listed(t, s, 4, 1); r.saved || !r.readDir {
		t.Fatalf("after a few files came and went: %+v", r)
	}

	// Past the threshold the cache is rewritten, but files younger than
	// racySlack are still read until they settle.
	writeStoreFrom(t, s, 42, 50)
	if r := listed(t, s, 12, 1); !r.saved {
		t.Fatalf("after many new files: %+v", r)
	}
	if r := listed(t, s, 12, 1); r.saved {
		t.Fatalf("unsettled files: %+v", r)
	}
	settle()
	if r := listed(t, s, 12, 1); !r.saved {
		t.Fatalf("settled files were not saved: %+v", r)
	}
	if r := listed(t, s, 1, 1); r.saved {
		t.Fatalf("only the bad file should be read: %+v", r)
	}
}

func writeStoreFrom(t *testing.T, s *Store, from, to int) {
	for i := from; i < to; i++ {
		b, _ := task.Render(tasktest.GenTask(i, to), nil)
		writeFile(t, s.Path(tasktest.GenID(i)), string(b))
	}
}

func TestListCacheDamaged(t *testing.T) {
	s := newStore(t)
	writeStore(t, s, 30)
	settle()
	listed(t, s, 30, 0)
	good := readFile(t, s.cachePath())
	for name, damage := range map[string]func([]byte) []byte{
		"flipped byte": func(b []byte) []byte { b[len(b)/2] ^= 0x40; return b },
		"truncated":    func(b []byte) []byte { return b[:len(b)-7] },
		"header only":  func(b []byte) []byte { return b[:cacheHeader] },
		"empty":        func([]byte) []byte { return nil },
		"other layout": func(b []byte) []byte { b[9]++; return b },
		"other format": func(b []byte) []byte { b[7] = '0'; return b },
		"garbage":      func([]byte) []byte { return []byte(strings.Repeat("not a cache ", 100)) },
	} {
		for _, mapped := range []bool{false, true} { // read, and mapped (a quick command's)
			t.Run(fmt.Sprintf("%s/mapped=%v", name, mapped), func(t *testing.T) {
				s.Mapped = mapped
				writeFile(t, s.cachePath(), string(damage(append([]byte(nil), good...))))
				if r := listed(t, s, 30, 0); !r.saved {
					t.Fatalf("damaged cache was not rebuilt: %+v", r)
				}
				listed(t, s, 0, 0)
			})
		}
	}
	s.Mapped = false
	// A cache whose records are wrong although its checksum holds.
	c := loadCache(s.cachePath())
	c.entries[4].rec = c.entries[4].rec[:10]
	if err := c.save(s.cachePath()); err != nil {
		t.Fatal(err)
	}
	if r := listed(t, s, 1, 0); !r.saved {
		t.Fatalf("bad record was not repaired: %+v", r)
	}
	listed(t, s, 0, 0)
}

func TestListWithoutCacheFolder(t *testing.T) {
	s := newStore(t)
	writeStore(t, s, 5)
	// A cache that cannot be written leaves List working.
	os.RemoveAll(s.Dir + "/cache")
	writeFile(t, s.Dir+"/cache", "a file where the folder should be")
	tasks, bad, err := s.List()
	if err != nil || len(tasks) != 5 || len(bad) != 0 {
		t.Fatalf("%d tasks, %v, %v", len(tasks), bad, err)
	}
}

// loadCache returns nil for a missing or unusable cache.
func loadCache(path string) *listCache {
	f, err := (&Store{}).openCache(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	if c := loadIndex(f); c != nil && c.useRecords(f.records()) {
		return c
	}
	return nil
}
