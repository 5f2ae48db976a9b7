package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/bh-tracker/bh/task"
)

// List reads every task, sorted by ID. Unreadable files do not stop it:
// they come back as errors beside the tasks that could be read.
//
// It parses only the files whose stamp changed since the list cache was
// written, and rewrites the cache once enough did.
func (s *Store) List() ([]*task.Task, []error, error) {
	tasks, bad, _, err := s.listFrom(false, nil)
	return tasks, bad, err
}

// ListBrief is List for commands that show many tasks at once: each task's
// History holds only the last question asked (for LastAsked), which spares
// most of the memory and time. Brief tasks cannot be written back: Get the
// task to change it.
func (s *Store) ListBrief() ([]*task.Task, []error, error) {
	tasks, bad, _, err := s.listFrom(true, nil)
	return tasks, bad, err
}

// listReport tells tests what a listing cost.
type listReport struct {
	parsed  int  // files read and decoded
	saved   bool // the cache was rewritten
	readDir bool // the folder was read, not known from the cache
	l       *listing
}

// listing is one List call's view of the tasks folder, by name index.
type listing struct {
	start  time.Time // taken before any stat: see stamp.settled
	dir    stamp     // the folder's, and whether the system gives one
	dirOK  bool
	old    *listCache // nil when there was none to use
	names  []string   // sorted
	stamps []stamp
	at     []int  // each name's entry in old, or -1
	hit    []bool // decoded from a settled entry whose file kept its stamp
	pool   []task.Task
	bad    map[int]error // os.ErrNotExist for a file gone since the stat
	parsed parsed
}

// list lists the tasks.
func (s *Store) list(brief bool) (tasks []*task.Task, errs []error, r listReport, err error) {
	return s.listFrom(brief, nil)
}

// listFrom lists the tasks, with the stamps a memo that did not hold took
// (pre, when it has them) in place of its own.
func (s *Store) listFrom(brief bool, pre *seen) (tasks []*task.Task, errs []error, r listReport, err error) {
	l := &listing{start: time.Now()}
	r.l = l
	d, err := os.Open(filepath.Join(s.Dir, "tasks"))
	if err != nil {
		return nil, nil, r, fmt.Errorf("read tasks: %w", err)
	}
	defer d.Close()
	// The folder's stamp before anything in it is read: a file added after
	// this changes it again, so the next listing reads the folder.
	l.dir, l.dirOK = dirStamp(d)
	// The records are read and checked while the index is.
	var recs []byte
	loaded := make(chan struct{})
	cache, err := s.openCache(s.cachePath())
	if err == nil {
		defer cache.Close()
		go func() {
			defer close(loaded)
			recs = cache.records()
		}()
		l.old = loadIndex(cache)
	} else {
		close(loaded)
	}

	// Stat every file while the cache's records load and decode: on two
	// cores the two halves take about as long.
	var readErr error
	named, stated := make(chan struct{}), make(chan struct{})
	if pre != nil && l.dirOK && pre.dir == l.dir {
		l.start, l.names, l.stamps = pre.start, pre.names, pre.stamps
		close(named)
		close(stated)
	} else if o := l.old; o != nil && o.dirSettled && l.dirOK && o.dir == l.dir {
		l.names = o.ids()
		close(named)
		go func() {
			defer close(stated)
			l.stamps = statAll(d, l.names)
		}()
	} else {
		r.readDir = true
		go func() {
			defer close(stated)
			l.names, readErr = readNames(d)
			slices.Sort(l.names)
			close(named)
			if readErr == nil {
				l.stamps = statAll(d, l.names)
			}
		}()
	}
	if <-loaded; l.old != nil && !l.old.useRecords(recs) {
		l.old = nil
	}
	<-named
	if readErr != nil {
		<-stated
		return nil, nil, r, fmt.Errorf("read tasks: %w", readErr)
	}
	l.at = l.old.match(l.names)
	l.pool = bigSlice[task.Task](len(l.names))
	l.old.decode(l.at, l.pool, brief)
	<-stated

	miss, repair := l.misses()
	l.parsed = s.parseMissing(d, l.names, miss, l.pool, brief)
	l.bad = l.parsed.errs
	r.parsed = len(miss)
	tasks, errs = l.results()
	if repair || l.worthSaving() {
		// A cache that cannot be written only makes the next list slower.
		r.saved = l.next().save(s.cachePath()) == nil
	}
	return tasks, errs, r, nil
}

// misses sets l.hit and returns the files the cache did not give: new,
// changed or unsettled ones, and those of bad records (then repair).
func (l *listing) misses() (miss []int, repair bool) {
	l.hit = make([]bool, len(l.names))
	for i, k := range l.at {
		switch {
		case l.stamps[i] == gone:
		case k < 0 || !l.old.entries[k].settled || l.old.entries[k].st != l.stamps[i] || l.old.entries[k].rec == "":
			miss = append(miss, i)
		case l.pool[i].ID == "": // see decode
			repair = true // a bad record in a cache that passed its checksum
			miss = append(miss, i)
		default:
			l.hit[i] = true
		}
	}
	return miss, repair
}

// results are the tasks listed, and the errors of the files that did not
// read as tasks.
func (l *listing) results() (tasks []*task.Task, errs []error) {
	tasks = make([]*task.Task, 0, len(l.names))
	for i := range l.names {
		switch err := l.bad[i]; {
		case !l.present(i):
		case err == nil:
			tasks = append(tasks, &l.pool[i])
		default:
			errs = append(errs, err)
		}
	}
	return tasks, errs
}

// present reports whether the file of name i still exists.
func (l *listing) present(i int) bool {
	return l.stamps[i] != gone && !errors.Is(l.bad[i], os.ErrNotExist)
}

// stale counts the files the cache does not hold as they are: new ones,
// changed ones, gone ones, and ones that have settled since. Each costs
// later lists a parse until the cache is rewritten.
func (l *listing) stale() int {
	o := l.old
	n, kept := 0, 0
	for i, k := range l.at {
		if !l.present(i) {
			continue
		}
		if k < 0 {
			n++
			continue
		}
		kept++
		e := o.entries[k]
		if e.st != l.stamps[i] || e.settled != l.stamps[i].settled(l.start) || (e.rec == "") != (l.bad[i] != nil) {
			n++
		}
	}
	return n + len(o.entries) - kept
}

// worthSaving weighs a rewrite of the cache, which costs about what
// reading all of it does, against a parse of each stale file at every
// list. Saving once they reach a 256th of the tasks keeps those parses
// under a tenth of the stat calls that each list makes anyway.
func (l *listing) worthSaving() bool {
	return l.old == nil || l.stale() > 8+len(l.names)/256
}

// next is the cache for this listing, reusing the old records of hits.
func (l *listing) next() *listCache {
	c := &listCache{entries: make([]cacheEntry, 0, len(l.names)), dir: l.dir, dirSettled: l.dirOK && l.dir.settled(l.start)}
	for i, id := range l.names {
		if !l.present(i) {
			continue
		}
		e := cacheEntry{id: id, st: l.stamps[i], settled: l.stamps[i].settled(l.start)}
		switch {
		case l.bad[i] != nil:
		case l.parsed.recs != nil && l.parsed.recs[i] != "":
			e.rec = l.parsed.recs[i]
		default:
			e.task = &l.pool[i]
			if l.hit[i] {
				e.rec = l.old.entries[l.at[i]].rec
			}
		}
		c.entries = append(c.entries, e)
	}
	return c
}
