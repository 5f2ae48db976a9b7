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
	tasks, bad, _, err := s.list()
	return tasks, bad, err
}

// listReport tells tests what a listing cost.
type listReport struct {
	readDir bool // the folder was read rather than taken from the cache
	parsed  int  // files read and decoded
	saved   bool // the cache was rewritten
}

func (s *Store) list() (tasks []*Task, errs []error, r listReport, err error) {
	start := time.Now() // before any stat: see stamp.settled
	d, err := os.Open(filepath.Join(s.Dir, "tasks"))
	if err != nil {
		return nil, nil, r, fmt.Errorf("read tasks: %w", err)
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
		return nil, nil, r, fmt.Errorf("read tasks: %w", err)
	} else {
		r.readDir = true
	}
	slices.Sort(names) // a no-op on the cache's names
	stamps := statAll(d, names)

	// Walk the names and the cache's entries together: both are sorted.
	pool := make([]Task, len(names))
	recs := make([]string, len(names)) // the cached record of each hit
	var miss []int
	repair := false
	j := 0
	for i, id := range names {
		if stamps[i] == gone {
			continue
		}
		for old != nil && j < len(old.entries) && old.entries[j].id < id {
			j++
		}
		if old != nil && j < len(old.entries) && old.entries[j].id == id {
			if o := old.entries[j]; o.settled && o.st == stamps[i] && o.rec != "" {
				if decodeTask(&dec{s: o.rec}, &pool[i]) && pool[i].ID == id {
					recs[i] = o.rec
					continue
				}
				repair = true // a bad record in a cache that passed its checksum
			}
		}
		miss = append(miss, i)
	}
	bad := s.parseMissing(names, miss, pool)
	r.parsed = len(miss)

	next := &listCache{dir: dirSt, dirSettled: dirSt.settled(start), entries: make([]cacheEntry, 0, len(names))}
	tasks = make([]*Task, 0, len(names))
	for i, id := range names {
		err := bad[i]
		if stamps[i] == gone || errors.Is(err, os.ErrNotExist) {
			continue // removed since the folder was read
		}
		e := cacheEntry{id: id, st: stamps[i], settled: stamps[i].settled(start), rec: recs[i]}
		if err == nil {
			tasks = append(tasks, &pool[i])
			e.task = &pool[i]
		} else {
			errs = append(errs, err)
		}
		next.entries = append(next.entries, e)
	}
	if old == nil || repair || next.gains(old) {
		// A cache that cannot be written only makes the next list slower.
		r.saved = next.save(s.cachePath()) == nil
	}
	return tasks, errs, r, nil
}

// gains reports whether writing next would spare later lists any work that
// old leaves them: a folder or entry now settled, or one that changed.
func (next *listCache) gains(old *listCache) bool {
	if next.dir != old.dir || next.dirSettled != old.dirSettled || len(next.entries) != len(old.entries) {
		return true
	}
	for i, e := range next.entries {
		o := old.entries[i]
		if e.id != o.id || e.st != o.st || e.settled != o.settled || (e.task == nil) != (o.rec == "") {
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
