package task

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestPhases(t *testing.T) {
	if os.Getenv("PHASES") == "" {
		t.Skip()
	}
	s := newStore(t)
	writeStore(t, s, 10000)
	settle()
	s.List()
	mins := map[string]time.Duration{}
	rec := func(name string, t0 time.Time) time.Time {
		d := time.Since(t0)
		if m, ok := mins[name]; !ok || d < m {
			mins[name] = d
		}
		return time.Now()
	}
	for range 30 {
		t0 := time.Now()
		d, _ := os.Open(filepath.Join(s.Dir, "tasks"))
		statFile(d)
		t0 = rec("open+fstat", t0)
		c := loadCache(s.cachePath())
		t0 = rec("loadCache", t0)
		names, _ := readNames(d)
		slices.Sort(names)
		t0 = rec("readNames+sort", t0)
		statAll(d, names)
		t0 = rec("statAll", t0)
		pool := make([]Task, len(names))
		for i, e := range c.entries {
			decodeTask(&dec{s: e.rec}, &pool[i], false)
		}
		t0 = rec("decode", t0)
		d.Close()
		s.List()
		rec("List", t0)
	}
	for _, k := range []string{"open+fstat", "loadCache", "readNames+sort", "statAll", "decode", "List"} {
		t.Logf("%-16s %v", k, mins[k])
	}
}

func TestMakeStore(t *testing.T) {
	dir := os.Getenv("MAKESTORE")
	if dir == "" {
		t.Skip()
	}
	os.MkdirAll(dir, 0o755)
	gitInit(t, dir)
	s, _, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	writeStore(t, s, 10000)
}
