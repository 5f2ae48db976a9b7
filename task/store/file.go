package store

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/gofrs/flock"
)

// CleanTemp removes temporary files of writes that a killed process left
// in .bh/tmp, once they are older than age (a live writer is done within
// milliseconds).
func (s *Store) CleanTemp(age time.Duration) {
	for _, p := range s.StaleTemp(age) {
		os.Remove(p)
	}
}

// StaleTemp lists the store's temp files older than age: those in
// .bh/tmp (task file writes) and the caches' (.git/bh/cache/.*.bin.*).
// It is what CleanTemp removes.
func (s *Store) StaleTemp(age time.Duration) []string {
	var paths []string
	entries, _ := os.ReadDir(filepath.Join(s.Dir, "tmp"))
	for _, e := range entries {
		paths = append(paths, filepath.Join(s.Dir, "tmp", e.Name()))
	}
	cache, _ := filepath.Glob(s.Local("cache", ".*.bin.*"))
	var stale []string
	for _, p := range append(paths, cache...) {
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && filepath.Base(p) != ".gitignore" &&
			time.Since(fi.ModTime()) > age {
			stale = append(stale, p)
		}
	}
	return stale
}

// lock takes the per-task lock that serializes read-modify-write.
func (s *Store) lock(id string) (*flock.Flock, error) {
	if !task.ValidID(id) {
		return nil, &task.BadIDError{Ref: id}
	}
	dir := s.Local("locks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", id, err)
	}
	l, err := LockFile(filepath.Join(dir, id+".lock"))
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", id, err)
	}
	return l, nil
}
