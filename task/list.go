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

	// Stat every file while decoding what the cache holds for it: the stat
	// calls wait on the kernel, the decoding does not.
	var stamps []stamp
	stats := make(chan struct{})
	go func() { stamps = statAll(d, names); close(stats) }()
	pool := make([]Task, len(names))
	recs := old.match(names)
	decodeAll(recs, pool)
	<-stats

	var miss []int
	repair := false
	for i := range names {
		switch {
		case stamps[i] == gone:
		case recs[i].rec == "" || recs[i].st != stamps[i]:
			recs[i].rec = ""
			miss = append(miss, i)
		case pool[i].ID != names[i]:
			repair = true // a bad record in a cache that passed its checksum
			recs[i].rec = ""
			miss = append(miss, i)
		}
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
		e := cacheEntry{id: id, st: stamps[i], settled: stamps[i].settled(start), rec: recs[i].rec}
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

// match finds each name's entry in the cache, where it may be trusted
// if the file's stamp is unchanged. Both lists are sorted.
func (c *listCache) match(names []string) []cacheEntry {
	out := make([]cacheEntry, len(names))
	if c == nil {
		return out
	}
	j := 0
	for i, id := range names {
		for j < len(c.entries) && c.entries[j].id < id {
			j++
		}
		if j < len(c.entries) && c.entries[j].id == id && c.entries[j].settled {
			out[i] = c.entries[j]
		}
	}
	return out
}

// decodeAll decodes the records into pool, in two halves at once. A record
// that does not decode leaves its task with an empty ID.
func decodeAll(recs []cacheEntry, pool []Task) {
	var wg sync.WaitGroup
	for half := range 2 {
		lo, hi := half*len(recs)/2, (half+1)*len(recs)/2
		wg.Go(func() {
			a := &arena{}
			for i := lo; i < hi; i++ {
				if recs[i].rec != "" && !decodeTask(&dec{s: recs[i].rec, a: a}, &pool[i]) {
					pool[i] = Task{}
				}
			}
		})
	}
	wg.Wait()
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
