package cmd

import (
	"os/exec"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task/store"
)

// newTestStore is bh init in a fresh git repository, its clock fixed.
func newTestStore(t testing.TB) *store.Store {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	s, _, err := store.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Now = func() time.Time { return time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC) }
	return s
}
