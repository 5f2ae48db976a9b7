// Package storetest is the fixtures of tests that need a bh store in a
// real git repository: one made, tasks added and read back.
package storetest

import (
	"path/filepath"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/gittest"
)

// New makes a real git repository with one commit and bh initialised
// (and committed) in it.
func New(t testing.TB) *store.Store {
	t.Helper()
	dir := t.TempDir()
	if err := git.InitDemo(dir); err != nil {
		t.Fatal(err)
	}
	s, _, err := store.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "add", ".bh")
	gittest.Git(t, dir, "commit", "-q", "-m", "bh init")
	return s
}

// Share gives s's repository a bare remote, origin, named by remote: in
// the config and holding its branch; it returns the store read again and
// the remote's folder.
func Share(t testing.TB, s *store.Store) (*store.Store, string) {
	t.Helper()
	bare := filepath.Join(t.TempDir(), "remote.git")
	gittest.Git(t, s.Root, "init", "-q", "--bare", bare)
	gittest.Git(t, s.Root, "remote", "add", "origin", bare)
	gittest.Write(t, s.Root, ".bh/config.yaml", "prefix: tm\nremote: origin\n")
	gittest.Git(t, s.Root, "commit", "-q", "-am", "share")
	gittest.Git(t, s.Root, "push", "-q", "origin", "HEAD")
	s, err := store.Find(s.Root)
	if err != nil {
		t.Fatal(err)
	}
	return s, bare
}

// Add creates a task titled title, depending on deps.
func Add(t testing.TB, s *store.Store, title string, deps ...string) *task.Task {
	t.Helper()
	tk, err := s.Create(&task.Task{Title: title, DependsOn: deps})
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// Get reads task id.
func Get(t testing.TB, s *store.Store, id string) *task.Task {
	t.Helper()
	tk, err := s.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}
