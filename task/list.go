package task

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// List reads every task, sorted by ID. Unreadable files do not stop it:
// they come back as errors beside the tasks that could be read.
//
// It parses only the files whose stamp changed since the list cache was
// written, and rewrites the cache when that spares later lists work.
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
	} else {
		if names, err = readNames(d); err != nil {
			return nil, nil, r, fmt.Errorf("read tasks: %w", err)
		}
		slices.Sort(names)
		r.readDir = true
	}

	// Stat every file while decoding what the cache holds for it: the stat
	// calls wait on the kernel, the decoding does not.
	var stamps []stamp
	stats := make(chan struct{})
	go func() { stamps = statAll(d, names); close(stats) }()
	at := old.match(names) // each name's entry in the old cache, or -1
	pool := bigSlice[Task](len(names))
	old.decode(at, pool)
	<-stats

	// A hit is a task decoded from a settled entry whose file kept its stamp.
	hit := make([]bool, len(names))
	var miss []int
	repair := false
	for i, k := range at {
		switch {
		case stamps[i] == gone:
		case k < 0 || !old.entries[k].settled || old.entries[k].st != stamps[i] || old.entries[k].rec == "":
			miss = append(miss, i)
		case pool[i].ID != names[i]:
			repair = true // a bad record in a cache that passed its checksum
			miss = append(miss, i)
		default:
			hit[i] = true
		}
	}
	bad := s.parseMissing(names, miss, pool)
	r.parsed = len(miss)

	// Rewrite the cache if anything in it changed or settled since.
	changed := old == nil || repair || old.dir != dirSt || old.dirSettled != dirSt.settled(start)
	kept := 0
	tasks = make([]*Task, 0, len(names))
	for i, k := range at {
		err := bad[i]
		if stamps[i] == gone || errors.Is(err, os.ErrNotExist) {
			continue // removed since the folder was read
		}
		if err == nil {
			tasks = append(tasks, &pool[i])
		} else {
			errs = append(errs, err)
		}
		if k < 0 {
			changed = true
			continue
		}
		o := old.entries[k]
		kept++
		changed = changed || o.st != stamps[i] || o.settled != stamps[i].settled(start) || (o.rec == "") != (err != nil)
	}
	if changed || kept != len(old.entries) {
		// A cache that cannot be written only makes the next list slower.
		r.saved = s.saveList(start, dirSt, names, stamps, at, hit, old, pool, bad) == nil
	}
	return tasks, errs, r, nil
}

// saveList writes the cache for a listing: each file's stamp and task,
// reusing the old cache's record where the task was read from it.
func (s *Store) saveList(start time.Time, dirSt stamp, names []string, stamps []stamp, at []int, hit []bool, old *listCache, pool []Task, bad map[int]error) error {
	next := &listCache{dir: dirSt, dirSettled: dirSt.settled(start), entries: make([]cacheEntry, 0, len(names))}
	for i, id := range names {
		err := bad[i]
		if stamps[i] == gone || errors.Is(err, os.ErrNotExist) {
			continue
		}
		e := cacheEntry{id: id, st: stamps[i], settled: stamps[i].settled(start)}
		if err == nil {
			e.task = &pool[i]
			if hit[i] {
				e.rec = old.entries[at[i]].rec
			}
		}
		next.entries = append(next.entries, e)
	}
	return next.save(s.cachePath())
}
