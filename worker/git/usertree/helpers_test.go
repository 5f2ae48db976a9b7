package usertree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/gittest"
)

// TestMain keeps the machine's own git configuration (hooks, signing,
// templates) out of the tests.
func TestMain(m *testing.M) {
	gittest.IsolateAll()
	fakeapi.MemoryTemp() // no agent runs in a sandbox here
	os.Exit(fakeapi.Isolated(m.Run))
}

// newRepo makes an empty repository with a local identity.
func newRepo(t testing.TB) *git.Repo {
	t.Helper()
	dir := t.TempDir()
	gittest.Empty(t, dir)
	r, err := git.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func writeT(t testing.TB, r *git.Repo, p, content string) {
	t.Helper()
	gittest.Write(t, r.Root, p, content)
}

// commitFiles writes files and commits everything.
func commitFiles(t testing.TB, r *git.Repo, files map[string]string) {
	t.Helper()
	for p, c := range files {
		writeT(t, r, p, c)
	}
	gittest.Git(t, r.Root, "add", "-A")
	gittest.Git(t, r.Root, "commit", "-q", "-m", "setup")
}

// baselineT records a baseline and fails the test on error.

// wtRepo makes a repository on main with files committed, and opens it.
func wtRepo(t testing.TB, files map[string]string) *git.Repo {
	t.Helper()
	r, err := git.Open(gittest.Init(t, files))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// wtEnsure makes task id's worktree from r's HEAD, in a folder of its own.
func wtEnsure(t testing.TB, r *git.Repo, id string) (*git.Worktree, string) {
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

// holdLock creates a git lock file, as another git process would.
func holdLock(t *testing.T, path string, age time.Duration) {
	t.Helper()
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if age > 0 {
		old := time.Now().Add(-age)
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
	}
}

// commitWork commits wt's work since base, as the worker does.
func commitWork(wt *git.Worktree, base, message string) (string, error) {
	k, err := wt.Work(base)
	if err != nil {
		return "", err
	}
	defer k.Close()
	return wt.CommitWork(k, message)
}
