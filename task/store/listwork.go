package store

import (
	"errors"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/bh-tracker/bh/task"
)

// match finds each name's entry in the cache: its index, or -1. Both
// lists are sorted.
func (c *listCache) match(names []string) []int {
	at := make([]int, len(names))
	j := 0
	for i, id := range names {
		at[i] = -1
		if c == nil {
			continue
		}
		for j < len(c.entries) && c.entries[j].id < id {
			j++
		}
		if j < len(c.entries) && c.entries[j].id == id {
			at[i] = j
		}
	}
	return at
}

// decode decodes the settled records the names have into pool, in two
// halves at once. A record that does not decode, or holds another task
// than its entry names, leaves an empty task: checked here, while the task
// is still in the processor's cache.
func (c *listCache) decode(at []int, pool []task.Task, brief bool) {
	if c == nil {
		return
	}
	var wg sync.WaitGroup
	for half := range 2 {
		lo, hi := half*len(at)/2, (half+1)*len(at)/2
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				if k := at[i]; k >= 0 && c.entries[k].settled && c.entries[k].rec != "" &&
					(!decodeTask(&dec{s: c.entries[k].rec}, &pool[i], brief) || pool[i].ID != c.entries[k].id) {
					pool[i] = task.Task{}
				}
			}
		})
	}
	wg.Wait()
}

// parsed is what parseMissing made of the files it read.
type parsed struct {
	errs map[int]error // by name index; os.ErrNotExist for a file gone
	recs []string      // by name index: the cache record of each task read
}

// parseMissing reads and decodes the files at the given indexes into pool,
// several at once. Each task is encoded for the cache as soon as it is
// read and decoded back from its record, so the file's text and (for a
// brief listing) the task's history are garbage at once: a first listing
// of 100k tasks keeps a record per task, not a file and a task.
func (s *Store) parseMissing(dir *os.File, names []string, miss []int, pool []task.Task, brief bool) parsed {
	p := parsed{errs: map[int]error{}}
	if len(miss) == 0 {
		return p
	}
	p.recs = make([]string, len(names))
	if len(miss) >= 1024 {
		// A quick command runs with no collector (main.go); thousands of
		// files parsed (a clone's first listing) make garbage enough to
		// need one: 100k tasks peaked at 1 GB without.
		if was := debug.SetGCPercent(400); was >= 0 {
			debug.SetGCPercent(was)
		} else {
			defer debug.SetGCPercent(was)
		}
	}
	workers := min(2*runtime.GOMAXPROCS(0), 1+len(miss)/16)
	fd := dir.Fd()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var e enc
			buf := make([]byte, 16<<10)
			for n := w; n < len(miss); n += workers {
				i := miss[n]
				t, err := s.getAt(fd, dir.Name(), names[i], &buf)
				if err == nil {
					e.b = e.b[:0]
					encodeTask(&e, t)
					p.recs[i] = string(e.b)
					if pool[i].ID != "" { // the cache's older version; a zero one stays (clearing 10k costs GC barriers)
						pool[i] = task.Task{}
					}
					decodeTask(&dec{s: p.recs[i]}, &pool[i], brief)
					continue
				}
				var nf *task.NotFoundError
				if errors.As(err, &nf) {
					err = os.ErrNotExist
				}
				mu.Lock()
				p.errs[i] = err
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return p
}

// getAt is Get through the open tasks folder, reading into *buf (which it
// keeps for the next read: decoding copies what it keeps).
func (s *Store) getAt(fd uintptr, dirPath, id string, buf *[]byte) (*task.Task, error) {
	if !task.ValidID(id) {
		return nil, &task.BadIDError{Ref: id}
	}
	b, err := readAt(fd, dirPath, id+".yaml", *buf)
	if b != nil {
		*buf = b
	}
	return s.decodeRead(id, b, err)
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
