package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A write killed between its temp file and the rename leaves the temp file
// behind; CleanTemp removes it once it is old enough not to be a live one.
func TestCleanTempRemovesOnlyOldLeftovers(t *testing.T) {
	s := newStore(t)
	tmp := filepath.Join(s.Dir, "tmp")
	os.MkdirAll(tmp, 0o755)
	os.WriteFile(filepath.Join(tmp, ".gitignore"), []byte("*\n"), 0o644)
	old, fresh := filepath.Join(tmp, "tm-1.yaml.123"), filepath.Join(tmp, "tm-2.yaml.456")
	for _, p := range []string{old, fresh} {
		if err := os.WriteFile(p, []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The caches' own temp files, from saves killed before their rename.
	cache := s.Local("cache")
	os.MkdirAll(cache, 0o755)
	oldCache, kept := filepath.Join(cache, ".tasks.bin.789"), filepath.Join(cache, "tasks.bin")
	oldOther := filepath.Join(cache, ".tasks.bin.42")
	for _, p := range []string{oldCache, kept, oldOther} {
		if err := os.WriteFile(p, []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	past := time.Now().Add(-time.Hour)
	for _, p := range []string{old, oldCache, kept, oldOther} {
		os.Chtimes(p, past, past)
	}
	if got := s.StaleTemp(time.Minute); len(got) != 3 {
		t.Errorf("StaleTemp = %v, want the three old leftovers", got)
	}
	s.CleanTemp(time.Minute)
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("the old leftover is still there: %v", err)
	}
	for _, p := range []string{oldCache, oldOther} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("a cache's old temp file is still there: %v", err)
		}
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("the list cache itself was removed: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a fresh temp file (a live write) was removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(tmp, ".gitignore")); err != nil {
		t.Errorf(".bh/tmp/.gitignore was removed: %v", err)
	}
}
