package repo

import (
	"os"
	"testing"
)

// agentMess is an agent at work on top of userMess: it edits a clean file
// and the user's dirty one, creates files in new directories, deletes a
// tracked file and the user's untracked one, renames, stages its own work
// and writes ignored output.
func agentMess(t *testing.T, r *Repo) {
	t.Helper()
	writeT(t, r, "clean.txt", "clean v2 by agent\n")
	writeT(t, r, "user.txt", "user v2 unstaged\nplus agent\n")
	writeT(t, r, "staged.txt", "agent rewrote the staged file\n")
	writeT(t, r, "deep/new/dirs/file.go", "package dirs\n")
	writeT(t, r, "notes/agent.txt", "agent next to the user's notes\n")
	writeT(t, r, "sp ace/ünï\ncode.txt", "odd\n")
	removeT(t, r, "old dir/x.c")
	removeT(t, r, "notes/todo.txt")
	if err := os.Rename(r.abs("move me.txt"), r.abs("moved.txt")); err != nil {
		t.Fatal(err)
	}
	gitT(t, r.Root, "add", "deep", "clean.txt")
	writeT(t, r, "build/agent.o", "ignored output")
}

func TestRollbackRemovesOnlyAgentChanges(t *testing.T) {
	r := newRepo(t)
	userMess(t, r)
	wantStatus := statusT(t, r)
	b, err := r.Baseline()
	if err != nil {
		t.Fatal(err)
	}
	wantFiles := treeFiles(t, r)
	agentMess(t, r)
	changed, err := r.Changed(b)
	if err != nil {
		t.Fatal(err)
	}
	equalT(t, "changed", changed, []string{
		"clean.txt", "deep/new/dirs/file.go", "move me.txt", "moved.txt", "notes/agent.txt",
		"notes/todo.txt", "old dir/x.c", "sp ace/ünï\ncode.txt", "staged.txt", "user.txt",
	})
	if err := r.Rollback(b, changed); err != nil {
		t.Fatal(err)
	}
	// the agent's ignored output is not its tracked work: it stays
	wantFiles["build/agent.o"] = "-rw-r--r--:ignored output"
	equalT(t, "files after rollback", treeFiles(t, r), wantFiles)
	removeT(t, r, "build/agent.o")
	equalT(t, "status after rollback", statusT(t, r), wantStatus)
	if again := changedT(t, r, b); len(again) != 0 {
		t.Errorf("changed after rollback: %q", again)
	}
}

func TestRollbackUnbornHead(t *testing.T) {
	r := newRepo(t)
	writeT(t, r, "mine.txt", "user\n")
	b := baselineT(t, r)
	wantFiles := treeFiles(t, r)
	writeT(t, r, "mine.txt", "agent\n")
	writeT(t, r, "a/b/c.txt", "agent\n")
	gitT(t, r.Root, "add", "-A")
	changed := changedT(t, r, b)
	if err := r.Rollback(b, changed); err != nil {
		t.Fatal(err)
	}
	equalT(t, "files", treeFiles(t, r), wantFiles)
	equalT(t, "index", gitT(t, r.Root, "ls-files", "--stage"), "")
}

// A file the agent turned into a directory comes back as the file.
func TestRollbackFileReplacedByDirectory(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"x": "file\n", "keep.txt": "k\n"})
	b := baselineT(t, r)
	removeT(t, r, "x")
	writeT(t, r, "x/inner.txt", "agent\n")
	changed := changedT(t, r, b)
	equalT(t, "changed", changed, []string{"x", "x/inner.txt"})
	if err := r.Rollback(b, changed); err != nil {
		t.Fatal(err)
	}
	equalT(t, "x", readT(t, r, "x"), "file\n")
	equalT(t, "status", gitT(t, r.Root, "status", "--porcelain"), "")
}

// Modes count: an exec bit and a symlink are changes, and roll back.
func TestRollbackModesAndSymlinks(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"run.sh": "#!/bin/sh\n", "target.txt": "t\n"})
	if err := os.Symlink("target.txt", r.abs("link")); err != nil {
		t.Fatal(err)
	}
	b := baselineT(t, r) // link is the user's untracked symlink
	if err := os.Chmod(r.abs("run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	removeT(t, r, "link")
	if err := os.Symlink("elsewhere", r.abs("link")); err != nil {
		t.Fatal(err)
	}
	changed := changedT(t, r, b)
	equalT(t, "changed", changed, []string{"link", "run.sh"})
	if err := r.Rollback(b, changed); err != nil {
		t.Fatal(err)
	}
	if target, _ := os.Readlink(r.abs("link")); target != "target.txt" {
		t.Errorf("link -> %q", target)
	}
	if fi, _ := os.Stat(r.abs("run.sh")); fi.Mode()&0o111 != 0 {
		t.Errorf("run.sh mode %v", fi.Mode())
	}
}

// Restoring a file keeps its permissions: a private file stays private.
func TestRollbackKeepsPermissions(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"a.txt": "a\n"})
	writeT(t, r, "secret.txt", "mine\n")
	if err := os.Chmod(r.abs("secret.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	b := baselineT(t, r)
	if err := os.WriteFile(r.abs("secret.txt"), []byte("agent\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	changed := changedT(t, r, b)
	if err := r.Rollback(b, changed); err != nil {
		t.Fatal(err)
	}
	equalT(t, "content", readT(t, r, "secret.txt"), "mine\n")
	if fi, _ := os.Stat(r.abs("secret.txt")); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
}
