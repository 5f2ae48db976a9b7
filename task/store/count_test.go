package store

import (
	"os"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/internal/tasktest"
)

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
		c.entries[i].id = tasktest.GenID(i)
	}
	if err := c.save(s.cachePath()); err != nil {
		t.Fatal(err)
	}
	if n, ok := cachedCount(s.cachePath()); !ok || n != len(c.entries) {
		t.Fatalf("cachedCount = %d, %v", n, ok)
	}
	tk, err := s.Create(&task.Task{Title: "new"})
	sized, _ := task.NewID("tm", len(c.entries), func(string) bool { return false })
	if err != nil || len(tk.ID) != len(sized) {
		t.Fatalf("created %v, %v: want an id sized for the cache's count", tk, err)
	}
	os.WriteFile(s.cachePath(), []byte("bhcache0 not a cache"), 0o644)
	if _, ok := cachedCount(s.cachePath()); ok {
		t.Fatal("a cache of another format was trusted")
	}
}
