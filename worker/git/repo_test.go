package git

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/worker/git/gittest"
)

func TestOpen(t *testing.T) {
	if _, err := Open(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not inside a git repository") {
		t.Fatalf("outside a repository: %v", err)
	}
	r := newRepo(t)
	sub := filepath.Join(r.Root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	inner, err := Open(sub)
	if err != nil {
		t.Fatal(err)
	}
	equalT(t, "root", inner.Root, r.Root)
	if head, err := r.Head(); head != "" || err != nil {
		t.Fatalf("unborn head: %q, %v", head, err)
	}
}

// go-git refuses extensions.worktreeConfig; bh must not.
func TestWorktreeConfigExtension(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"a.txt": "a\n"})
	gittest.Git(t, r.Root, "config", "core.repositoryFormatVersion", "1")
	gittest.Git(t, r.Root, "config", "extensions.worktreeConfig", "true")
	r, err := Open(r.Root)
	if err != nil {
		t.Fatal(err)
	}
	head, err := r.Head()
	if err != nil {
		t.Fatal(err)
	}
	wt, _, err := r.EnsureWorktree(filepath.Join(t.TempDir(), "tm-1"), "bh/tm-1", head, r.Root)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wt.Path, "a.txt"), []byte("agent\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	snap, paths, err := wt.Snapshot(head, "park")
	if err != nil || len(paths) != 1 {
		t.Fatalf("snapshot: %v %v", paths, err)
	}
	if err := r.SetRef("refs/bh/parked/tm-1", snap, "park"); err != nil {
		t.Fatal(err)
	}
	if got, err := r.Ref("refs/bh/parked/tm-1"); err != nil || got != snap {
		t.Fatalf("ref = %s, %v; want %s", got, err, snap)
	}
}

func TestInProgressOp(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"f.txt": "base\n"})
	gittest.Git(t, r.Root, "checkout", "-q", "-b", "other")
	commitFiles(t, r, map[string]string{"f.txt": "other\n"})
	gittest.Git(t, r.Root, "checkout", "-q", "main")
	commitFiles(t, r, map[string]string{"f.txt": "main\n"})
	if op, err := r.InProgressOp(); op != "" || err != nil {
		t.Fatalf("before merge: %q, %v", op, err)
	}
	cmd := []string{"merge", "-q", "other"}
	if out, err := r.Write(nil, cmd...); err == nil {
		t.Fatalf("merge did not conflict: %s", out)
	}
	if op, err := r.InProgressOp(); op != "merge" || err != nil {
		t.Fatalf("during merge: %q, %v", op, err)
	}
	gittest.Git(t, r.Root, "merge", "--abort")
	if op, _ := r.InProgressOp(); op != "" {
		t.Fatalf("after abort: %q", op)
	}
	gittest.Git(t, r.Root, "checkout", "-q", "other")
	if _, err := r.Write(nil, "rebase", "-q", "main"); err == nil {
		t.Fatal("rebase did not conflict")
	}
	if op, _ := r.InProgressOp(); op != "rebase" {
		t.Fatalf("during rebase: %q", op)
	}
}

func TestHead(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"a.txt": "a\n"})
	want := strings.TrimSpace(gittest.Git(t, r.Root, "rev-parse", "HEAD"))
	gittest.Git(t, r.Root, "pack-refs", "--all")
	if head, err := r.Head(); head != want || err != nil {
		t.Fatalf("packed refs: %q, %v", head, err)
	}
	gittest.Git(t, r.Root, "checkout", "-q", "--detach")
	if head, err := r.Head(); head != want || err != nil {
		t.Fatalf("detached: %q, %v", head, err)
	}
	gittest.Git(t, r.Root, "checkout", "-q", "main")

	// a linked worktree has its own HEAD and shares the refs
	wt := filepath.Join(t.TempDir(), "wt")
	gittest.Git(t, r.Root, "worktree", "add", "-q", "-b", "side", wt)
	w, err := Open(wt)
	if err != nil {
		t.Fatal(err)
	}
	writeT(t, w, "side.txt", "side\n")
	gittest.Git(t, wt, "add", "side.txt")
	gittest.Git(t, wt, "commit", "-q", "-m", "on side")
	head, err := w.Head()
	if err != nil {
		t.Fatal(err)
	}
	equalT(t, "side branch", strings.TrimSpace(gittest.Git(t, r.Root, "rev-parse", "side")), head)
	if head, _ := r.Head(); head != want {
		t.Fatalf("main worktree HEAD moved to %s", head)
	}
}
