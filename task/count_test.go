package task

import (
	"os"
	"testing"
)

// A collision lengthens the next ID: the count it was sized for was
// behind the store.
func TestNewIDGrowsOnCollision(t *testing.T) {
	tries := 0
	id, err := newID("bh", 0, func(id string) bool {
		tries++
		return len(id) < 3+6 // every 4- and 5-character ID is taken
	})
	if err != nil || len(id) != 3+6 || tries != 3 {
		t.Fatalf("got %q, %v after %d tries; want a 6-character id on the third", id, err, tries)
	}
}

// bh add sizes IDs from the list cache's count, without reading the
// folder; with no cache it counts the folder.
func TestCreateCountsFromCache(t *testing.T) {
	s := newStore(t)
	writeStore(t, s, 40)
	if n, err := s.taskCount(); err != nil || n != 40 {
		t.Fatalf("without a cache: %d, %v; want 40", n, err)
	}
	c := &listCache{entries: make([]cacheEntry, 70000)} // a store of 70k tasks, as the cache says
	for i := range c.entries {
		c.entries[i].id = genID(i)
	}
	if err := c.save(s.cachePath()); err != nil {
		t.Fatal(err)
	}
	if n, ok := cachedCount(s.cachePath()); !ok || n != len(c.entries) {
		t.Fatalf("cachedCount = %d, %v", n, ok)
	}
	tk, err := s.Create(&Task{Title: "new"})
	if err != nil || len(tk.ID) != len("tm-")+idLength(len(c.entries)) {
		t.Fatalf("created %v, %v: want an id sized for the cache's count", tk, err)
	}
	os.WriteFile(s.cachePath(), []byte("bhcache0 not a cache"), 0o644)
	if _, ok := cachedCount(s.cachePath()); ok {
		t.Fatal("a cache of another format was trusted")
	}
}
