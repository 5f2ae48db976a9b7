package store

import (
	"errors"
	"os"
	"runtime"
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
// halves at once. A record that does not decode leaves an empty task.
func (c *listCache) decode(at []int, pool []task.Task, brief bool) {
	if c == nil {
		return
	}
	var wg sync.WaitGroup
	for half := range 2 {
		lo, hi := half*len(at)/2, (half+1)*len(at)/2
		wg.Go(func() {
			a := c.arena(hi-lo, brief)
			for i := lo; i < hi; i++ {
				if k := at[i]; k >= 0 && c.entries[k].settled && c.entries[k].rec != "" &&
					!decodeTask(&dec{s: c.entries[k].rec, a: a}, &pool[i], brief) {
					pool[i] = task.Task{}
				}
			}
		})
	}
	wg.Wait()
}

// trim makes t brief: its history cut to the last question asked.
func trim(t *task.Task) {
	var h []task.Event
	if ask, ok := t.LastAsked(); ok {
		h = []task.Event{ask}
	}
	t.Trim(h)
}

// arena sizes an arena for n of the cache's tasks from its totals. Brief
// tasks keep one event at most, and few do.
func (c *listCache) arena(n int, brief bool) *arena {
	if len(c.entries) == 0 {
		return &arena{}
	}
	share := func(total int) int { return total*n/len(c.entries) + 256 }
	a := &arena{strs: bigSlice[string](share(c.strs))}
	if !brief {
		a.events = bigSlice[task.Event](share(c.events))
	}
	return a
}

// parseMissing reads and decodes the files at the given indexes into pool,
// several at once, and returns the errors by index; os.ErrNotExist for a
// file that went away.
func (s *Store) parseMissing(names []string, miss []int, pool []task.Task) map[int]error {
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
				var nf *task.NotFoundError
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
