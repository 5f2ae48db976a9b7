package task

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// List reads every task, sorted by ID. Unreadable files do not stop it:
// they come back as errors beside the tasks that could be read.
//
// It parses only the files whose stamp changed since the list cache was
// written, and rewrites the cache when that would spare later lists work.
func (s *Store) List() ([]*Task, []error, error) {
	start := time.Now() // before any stat: see stamp.settled
	d, err := os.Open(filepath.Join(s.Dir, "tasks"))
	if err != nil {
		return nil, nil, fmt.Errorf("read tasks: %w", err)
	}
	defer d.Close()
	dirSt := statFile(d)
	old := loadCache(s.cachePath())

	var names []string
	if old != nil && old.dirSettled && old.dir == dirSt {
		names = make([]string, len(old.entries))
		for i, e := range old.entries {
			names[i] = e.id
		}
	} else if names, err = readNames(d); err != nil {
		return nil, nil, fmt.Errorf("read tasks: %w", err)
	}
	slices.Sort(names) // a no-op on the cache's names
	stamps := statAll(d, names)

	// Walk the names and the cache's entries together: both are sorted.
	next := &listCache{dir: dirSt, dirSettled: dirSt.settled(start), entries: make([]cacheEntry, 0, len(names))}
	pool := make([]Task, len(names))
	var miss []int
	j := 0
	for i, id := range names {
		st := stamps[i]
		if st == gone {
			continue
		}
		e := cacheEntry{id: id, st: st, settled: st.settled(start)}
		for old != nil && j < len(old.entries) && old.entries[j].id < id {
			j++
		}
		if old != nil && j < len(old.entries) && old.entries[j].id == id {
			if o := old.entries[j]; o.settled && o.st == st && o.rec != "" &&
				decodeTask(&dec{s: o.rec}, &pool[i]) && pool[i].ID == id {
				e.rec = o.rec
			}
		}
		if e.rec == "" {
			miss = append(miss, i)
		}
		next.entries = append(next.entries, e)
	}
	bad := s.parseMissing(names, miss, pool)

	tasks := make([]*Task, 0, len(names))
	var errs []error
	k := 0
	for i := range names {
		if stamps[i] == gone {
			continue
		}
		e := &next.entries[k]
		k++
		switch err := bad[i]; {
		case err == nil:
			tasks = append(tasks, &pool[i])
			if e.rec == "" {
				var en enc
				encodeTask(&en, &pool[i])
				e.rec = string(en.b)
			}
		case errors.Is(err, os.ErrNotExist): // removed since the stat
			e.st, e.settled = gone, false
		default:
			errs = append(errs, err)
		}
	}
	if old == nil || next.gains(old) {
		_ = next.save(s.cachePath()) // a cache that cannot be written is only slower
	}
	return tasks, errs, nil
}

// gains reports whether writing next would spare later lists any work that
// old leaves them: a folder or entry now settled, or one that changed.
func (next *listCache) gains(old *listCache) bool {
	if next.dir != old.dir || next.dirSettled != old.dirSettled || len(next.entries) != len(old.entries) {
		return true
	}
	for i, e := range next.entries {
		o := old.entries[i]
		if e.id != o.id || e.st != o.st || e.settled != o.settled || (e.rec == "") != (o.rec == "") {
			return true
		}
	}
	return false
}

// parseMissing reads and decodes the files at the given indexes into pool,
// several at once, and returns the errors by index.
func (s *Store) parseMissing(names []string, miss []int, pool []Task) map[int]error {
	errs := map[int]error{}
	if len(miss) == 0 {
		return errs
	}
	workers := min(2*runtime.GOMAXPROCS(0), 1+len(miss)/16)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for n := w; n < len(miss); n += workers {
				i := miss[n]
				t, err := s.Get(names[i])
				if err == nil {
					pool[i] = *t
					continue
				}
				var nf *NotFoundError
				if errors.As(err, &nf) {
					err = os.ErrNotExist
				}
				mu.Lock()
				errs[i] = err
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return errs
}

// readNames lists the task IDs in an open tasks folder, unsorted.
func readNames(d *os.File) ([]string, error) {
	all, err := d.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	ids := all[:0]
	for _, n := range all {
		if strings.HasSuffix(n, ".yaml") && !strings.HasPrefix(n, ".") {
			ids = append(ids, strings.TrimSuffix(n, ".yaml"))
		}
	}
	return ids, nil
}
