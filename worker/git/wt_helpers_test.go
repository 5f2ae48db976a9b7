package git

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

// wtRepo makes a repository on main with files committed, and opens it.
func wtRepo(t testing.TB, files map[string]string) *Repo {
	t.Helper()
	r, err := Open(gittest.Init(t, files))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// wtEnsure makes task id's worktree from r's HEAD, in a folder of its own.
func wtEnsure(t testing.TB, r *Repo, id string) (*Worktree, string) {
	t.Helper()
	base := strings.TrimSpace(gittest.Git(t, r.Root, "rev-parse", "HEAD"))
	path := filepath.Join(filepath.Dir(r.Root), "worktrees", id)
	wt, created, err := r.EnsureWorktree(path, "bh/"+id, base, r.Root)
	if err != nil {
		t.Fatal(err)
	}
	if !created {
		t.Fatalf("worktree %s was not created", id)
	}
	return wt, base
}
