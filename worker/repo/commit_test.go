package repo

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// userMess gives a committed repository a user in the middle of their own
// work: a dirty file, a staged file, untracked and ignored files.
func userMess(t *testing.T, r *Repo) {
	t.Helper()
	commitFiles(t, r, map[string]string{
		".gitignore":  "build/\n.env\n",
		"user.txt":    "user v1\n",
		"staged.txt":  "staged v1\n",
		"clean.txt":   "clean v1\n",
		"old dir/x.c": "x\n",
		"move me.txt": "moving\n",
	})
	writeT(t, r, "user.txt", "user v2 unstaged\n")
	writeT(t, r, "staged.txt", "staged v2\n")
	gitT(t, r.Root, "add", "staged.txt")
	writeT(t, r, "notes/todo.txt", "untracked notes\n")
	writeT(t, r, "build/out.o", "binary\x00junk")
	writeT(t, r, ".env", "SECRET=1\n")
}

func TestCommitOnlyAgentChanges(t *testing.T) {
	r := newRepo(t)
	userMess(t, r)
	b, err := r.Baseline()
	if err != nil {
		t.Fatal(err)
	}
	// the agent edits, creates in a new directory, deletes and renames
	writeT(t, r, "clean.txt", "clean v2 by agent\n")
	writeT(t, r, "new dir/sub/with space.go", "package sub\n")
	writeT(t, r, "line\nbreak.txt", "odd name\n")
	removeT(t, r, "old dir/x.c")
	if err := os.Rename(r.abs("move me.txt"), r.abs("moved.txt")); err != nil {
		t.Fatal(err)
	}
	writeT(t, r, "build/agent.o", "ignored output")

	changed, err := r.Changed(b)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"clean.txt", "line\nbreak.txt", "move me.txt", "moved.txt", "new dir/sub/with space.go", "old dir/x.c"}
	equalT(t, "changed", changed, want)

	hash, err := r.Commit(changed, "agent work\n\n# not a comment")
	if err != nil {
		t.Fatal(err)
	}
	equalT(t, "committed paths", commitPaths(t, r, hash), want)
	if head, _ := r.Head(); head != hash {
		t.Fatalf("HEAD %s, want %s", head, hash)
	}
	if msg := gitT(t, r.Root, "log", "-1", "--format=%B"); !strings.Contains(msg, "# not a comment") {
		t.Errorf("message lost its # line: %q", msg)
	}
	// the user's work is exactly as it was
	equalT(t, "still staged", gitT(t, r.Root, "diff", "--cached", "--name-only"), "staged.txt\n")
	equalT(t, "still unstaged", gitT(t, r.Root, "diff", "--name-only"), "user.txt\n")
	equalT(t, "still untracked", gitT(t, r.Root, "ls-files", "--others", "--exclude-standard"), "notes/todo.txt\n")
	equalT(t, "staged content", gitT(t, r.Root, "show", ":staged.txt"), "staged v2\n")
	if got := readT(t, r, ".env"); got != "SECRET=1\n" {
		t.Errorf(".env = %q", got)
	}
	if again := changedT(t, r, b); len(again) != 0 {
		t.Errorf("changed after commit: %q", again)
	}
}

func TestCommitUnbornHead(t *testing.T) {
	r := newRepo(t)
	writeT(t, r, "notes.txt", "mine\n")
	writeT(t, r, "staged.txt", "staged by user\n")
	gitT(t, r.Root, "add", "staged.txt")
	b, err := r.Baseline()
	if err != nil {
		t.Fatal(err)
	}
	if b.Head != "" {
		t.Fatalf("baseline head %q on an unborn branch", b.Head)
	}
	writeT(t, r, "main.go", "package main\n")
	changed, err := r.Changed(b)
	if err != nil {
		t.Fatal(err)
	}
	equalT(t, "changed", changed, []string{"main.go"})
	hash, err := r.Commit(changed, "first")
	if err != nil {
		t.Fatal(err)
	}
	equalT(t, "committed", commitPaths(t, r, hash), []string{"main.go"})
	equalT(t, "still staged", gitT(t, r.Root, "diff", "--cached", "--name-only"), "staged.txt\n")
}

// A file the user had edited that the agent edits too is committed whole.
func TestCommitOverlapTakesWholeFile(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"f.txt": "1\n2\n3\n"})
	writeT(t, r, "f.txt", "1 user\n2\n3\n")
	b := baselineT(t, r)
	writeT(t, r, "f.txt", "1 user\n2\n3 agent\n")
	changed := changedT(t, r, b)
	equalT(t, "changed", changed, []string{"f.txt"})
	if _, err := r.Commit(changed, "overlap"); err != nil {
		t.Fatal(err)
	}
	equalT(t, "committed", gitT(t, r.Root, "show", "HEAD:f.txt"), "1 user\n2\n3 agent\n")
}

// A file named like a glob must stand for itself only.
func TestCommitLiteralPathspec(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"a.txt": "a\n", "*.txt": "star\n", "[ab].txt": "x\n"})
	writeT(t, r, "a.txt", "user edit\n")
	b := baselineT(t, r)
	writeT(t, r, "*.txt", "agent\n")
	writeT(t, r, ":(top)odd", "agent\n")
	changed := changedT(t, r, b)
	hash, err := r.Commit(changed, "globs")
	if err != nil {
		t.Fatal(err)
	}
	equalT(t, "committed", commitPaths(t, r, hash), []string{"*.txt", ":(top)odd"})
	equalT(t, "user edit left", gitT(t, r.Root, "diff", "--name-only"), "a.txt\n")
}

func TestCommitNothing(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"a.txt": "a\n"})
	if _, err := r.Commit(nil, "m"); !errors.Is(err, ErrNothingToCommit) {
		t.Fatalf("no paths: %v", err)
	}
	if _, err := r.Commit([]string{"a.txt"}, "m"); !errors.Is(err, ErrNothingToCommit) {
		t.Fatalf("unchanged path: %v", err)
	}
}

// When the agent committed its own work, Changed has nothing left and
// nothing is committed twice.
func TestAgentCommittedItself(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"a.txt": "a\n"})
	writeT(t, r, "user.txt", "untracked\n")
	b := baselineT(t, r)
	writeT(t, r, "a.txt", "agent\n")
	gitT(t, r.Root, "commit", "-q", "-am", "agent did it")
	changed, err := r.Changed(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(changed) != 0 {
		t.Fatalf("changed after the agent's own commit: %q", changed)
	}
}

func TestCommitWithoutIdentity(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"a.txt": "a\n"})
	gitT(t, r.Root, "config", "--unset", "user.name")
	gitT(t, r.Root, "config", "--unset", "user.email")
	gitT(t, r.Root, "config", "user.useConfigOnly", "true")
	t.Setenv("EMAIL", "")
	b := baselineT(t, r)
	writeT(t, r, "new.txt", "agent\n")
	changed := changedT(t, r, b)
	before := statusT(t, r)
	_, err := r.Commit(changed, "m")
	if !errors.Is(err, ErrNoIdentity) || !strings.Contains(err.Error(), "hint: ") {
		t.Fatalf("err = %v", err)
	}
	equalT(t, "status after failed commit", statusT(t, r), before)
}

// The agent deleting a file git never knew is a change Rollback can undo
// but nothing to commit; it must not break the commit of the rest.
func TestCommitSkipsDeletedUntracked(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	writeT(t, r, "scratch.txt", "user scratch\n")
	writeT(t, r, "staged-new.txt", "staged\n")
	gitT(t, r.Root, "add", "staged-new.txt")
	b := baselineT(t, r)
	removeT(t, r, "scratch.txt")
	removeT(t, r, "staged-new.txt")
	removeT(t, r, "b.txt")
	writeT(t, r, "a.txt", "agent\n")
	changed := changedT(t, r, b)
	equalT(t, "changed", changed, []string{"a.txt", "b.txt", "scratch.txt", "staged-new.txt"})
	hash, err := r.Commit(changed, "m")
	if err != nil {
		t.Fatal(err)
	}
	equalT(t, "committed", commitPaths(t, r, hash), []string{"a.txt", "b.txt"})
	equalT(t, "status", gitT(t, r.Root, "status", "--porcelain"), "")
}

// A failing hook is reported as such, and the index goes back as it was.
func TestCommitHookFails(t *testing.T) {
	for name, hook := range map[string]string{"loud": "echo lint failed >&2; exit 1", "silent": "exit 1"} {
		t.Run(name, func(t *testing.T) {
			r := newRepo(t)
			commitFiles(t, r, map[string]string{"a.txt": "a\n"})
			writeT(t, r, ".git/hooks/pre-commit", "#!/bin/sh\n"+hook+"\n")
			if err := os.Chmod(r.abs(".git/hooks/pre-commit"), 0o755); err != nil {
				t.Fatal(err)
			}
			writeT(t, r, "a.txt", "user staged\n")
			gitT(t, r.Root, "add", "a.txt")
			b := baselineT(t, r)
			writeT(t, r, "new.txt", "agent\n")
			writeT(t, r, "a.txt", "agent too\n")
			changed := changedT(t, r, b)
			before := statusT(t, r)
			_, err := r.Commit(changed, "m")
			if err == nil || errors.Is(err, ErrNothingToCommit) {
				t.Fatalf("err = %v", err)
			}
			if name == "loud" && !strings.Contains(err.Error(), "lint failed") {
				t.Errorf("hook output missing: %v", err)
			}
			equalT(t, "status", statusT(t, r), before)
		})
	}
}
