package repo

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	gitT(t, r.Root, "config", "core.repositoryFormatVersion", "1")
	gitT(t, r.Root, "config", "extensions.worktreeConfig", "true")
	r, err := Open(r.Root)
	if err != nil {
		t.Fatal(err)
	}
	b := baselineT(t, r)
	writeT(t, r, "a.txt", "agent\n")
	if _, err := r.Park(parkRef, b, []string{"a.txt"}, "park"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Unpark(parkRef); err != nil {
		t.Fatal(err)
	}
	equalT(t, "a.txt", readT(t, r, "a.txt"), "agent\n")
}

func TestInProgressOp(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"f.txt": "base\n"})
	gitT(t, r.Root, "checkout", "-q", "-b", "other")
	commitFiles(t, r, map[string]string{"f.txt": "other\n"})
	gitT(t, r.Root, "checkout", "-q", "main")
	commitFiles(t, r, map[string]string{"f.txt": "main\n"})
	if op, err := r.InProgressOp(); op != "" || err != nil {
		t.Fatalf("before merge: %q, %v", op, err)
	}
	cmd := []string{"merge", "-q", "other"}
	if out, err := r.git(nil, cmd...); err == nil {
		t.Fatalf("merge did not conflict: %s", out)
	}
	if op, err := r.InProgressOp(); op != "merge" || err != nil {
		t.Fatalf("during merge: %q, %v", op, err)
	}
	gitT(t, r.Root, "merge", "--abort")
	if op, _ := r.InProgressOp(); op != "" {
		t.Fatalf("after abort: %q", op)
	}
	gitT(t, r.Root, "checkout", "-q", "other")
	if _, err := r.git(nil, "rebase", "-q", "main"); err == nil {
		t.Fatal("rebase did not conflict")
	}
	if op, _ := r.InProgressOp(); op != "rebase" {
		t.Fatalf("during rebase: %q", op)
	}
}

func TestBaselineJSONRoundTrip(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"a.txt": "a\n", "gone.txt": "g\n"})
	writeT(t, r, "a.txt", "user\n")
	gitT(t, r.Root, "add", "a.txt")
	writeT(t, r, "a.txt", "user again\n")
	removeT(t, r, "gone.txt")
	writeT(t, r, "new\nline.txt", "n\n")
	writeT(t, r, "latin1-\xe9.txt", "not utf-8 in its name\n")
	b, err := r.Baseline()
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Entries) != 4 {
		t.Fatalf("entries: %#v", b.Entries)
	}
	data, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var back Baseline
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	equalT(t, "round trip", back, *b)
	writeT(t, r, "latin1-\xe9.txt", "agent\n")
	changed, err := r.Changed(&back)
	if err != nil {
		t.Fatal(err)
	}
	equalT(t, "changed", changed, []string{"latin1-\xe9.txt"})
	if err := r.Rollback(&back, changed); err != nil {
		t.Fatal(err)
	}
	equalT(t, "restored", readT(t, r, "latin1-\xe9.txt"), "not utf-8 in its name\n")
	if err := json.Unmarshal([]byte(`{"version":99}`), &back); err == nil {
		t.Fatal("accepted an unknown version")
	}
}

func TestHead(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"a.txt": "a\n"})
	want := strings.TrimSpace(gitT(t, r.Root, "rev-parse", "HEAD"))
	gitT(t, r.Root, "pack-refs", "--all")
	if head, err := r.Head(); head != want || err != nil {
		t.Fatalf("packed refs: %q, %v", head, err)
	}
	gitT(t, r.Root, "checkout", "-q", "--detach")
	if head, err := r.Head(); head != want || err != nil {
		t.Fatalf("detached: %q, %v", head, err)
	}
	gitT(t, r.Root, "checkout", "-q", "main")

	// a linked worktree has its own HEAD and shares the refs
	wt := filepath.Join(t.TempDir(), "wt")
	gitT(t, r.Root, "worktree", "add", "-q", "-b", "side", wt)
	w, err := Open(wt)
	if err != nil {
		t.Fatal(err)
	}
	writeT(t, w, "side.txt", "side\n")
	b, _ := w.Baseline()
	writeT(t, w, "agent.txt", "agent\n")
	changed, _ := w.Changed(b)
	hash, err := w.Commit(changed, "on side")
	if err != nil {
		t.Fatal(err)
	}
	equalT(t, "side branch", strings.TrimSpace(gitT(t, r.Root, "rev-parse", "side")), hash)
	if head, _ := r.Head(); head != want {
		t.Fatalf("main worktree HEAD moved to %s", head)
	}
}

// bh's own task files are the worker's business, never the agent's changes.
func TestChangedSkipsBhFiles(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{".bh/tasks/tm-1.yaml": "state: ready\n"})
	b := baselineT(t, r)
	writeT(t, r, ".bh/tasks/tm-1.yaml", "state: done\n")
	writeT(t, r, ".bh/runs/tm-1/baseline.json", "{}")
	writeT(t, r, ".bhx", "agent\n")
	changed := changedT(t, r, b)
	equalT(t, "changed", changed, []string{".bhx"})
}
