package repo

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The user's staged entries for other paths survive a commit byte for
// byte, stat data included; the committed paths get entries with stat
// data, so that the next status need not read them again.
func TestCommitKeepsUserIndex(t *testing.T) {
	for _, porcelain := range []bool{false, true} {
		r := newRepo(t)
		commitFiles(t, r, map[string]string{"mod.txt": "1\n", "gone.txt": "g\n", "mode.sh": "m\n", "agent.txt": "a\n"})
		writeT(t, r, "mod.txt", "staged edit\n")
		writeT(t, r, "added.txt", "staged new\n")
		writeT(t, r, "ita.txt", "intent to add\n")
		gitT(t, r.Root, "add", "mod.txt", "added.txt")
		gitT(t, r.Root, "add", "-N", "ita.txt")
		gitT(t, r.Root, "rm", "-q", "--cached", "gone.txt")
		gitT(t, r.Root, "update-index", "--chmod=+x", "mode.sh")
		writeT(t, r, "mod.txt", "staged edit, then more unstaged\n")
		if porcelain {
			forcePorcelain(t, r)
		}
		user := []string{"ls-files", "--debug", "--", "mod.txt", "added.txt", "ita.txt", "gone.txt", "mode.sh"}
		b := baselineT(t, r)
		before := gitT(t, r.Root, user...)
		staged := gitT(t, r.Root, "diff", "--cached", "--binary", "--", "mod.txt", "added.txt", "ita.txt", "gone.txt", "mode.sh")
		writeT(t, r, "agent.txt", "agent\n")
		writeT(t, r, "new.txt", "new\n")
		changed := changedT(t, r, b)
		if _, err := r.Commit(changed, "agent"); err != nil {
			t.Fatal(err)
		}
		equalT(t, "user's index entries", gitT(t, r.Root, user...), before)
		equalT(t, "user's staged diff", gitT(t, r.Root, "diff", "--cached", "--binary", "--",
			"mod.txt", "added.txt", "ita.txt", "gone.txt", "mode.sh"), staged)
		equalT(t, "nothing else staged", gitT(t, r.Root, "diff", "--cached", "--name-only", "--", "agent.txt", "new.txt"), "")
		if debug := gitT(t, r.Root, "ls-files", "--debug", "--", "agent.txt", "new.txt"); strings.Contains(debug, "mtime: 0:0") {
			t.Errorf("porcelain %v: committed entries without stat data:\n%s", porcelain, debug)
		}
	}
}

// A user commit between bh reading HEAD and moving it is never
// overwritten; Commit builds on it instead.
func TestCommitHeadMoved(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"a.txt": "a\n"})
	b := baselineT(t, r)
	writeT(t, r, "agent.txt", "agent\n")
	changed := changedT(t, r, b)
	head, _ := r.Head()
	base, _ := r.commitTree(head)
	changes, err := r.currentChanges(base, changed)
	if err != nil {
		t.Fatal(err)
	}
	gitT(t, r.Root, "commit", "-q", "--allow-empty", "-m", "user's commit")
	user, _ := r.Head()
	index := gitT(t, r.Root, "ls-files", "-s")
	if _, err := r.commitOn(head, base, changes, "agent\n"); !errors.Is(err, errHeadMoved) {
		t.Fatalf("err = %v", err)
	}
	if now, _ := r.Head(); now != user {
		t.Fatalf("HEAD %s, want the user's %s", now, user)
	}
	equalT(t, "index", gitT(t, r.Root, "ls-files", "-s"), index)
	hash, err := r.Commit(changed, "agent")
	if err != nil {
		t.Fatal(err)
	}
	equalT(t, "parent", strings.TrimSpace(gitT(t, r.Root, "rev-parse", hash+"^")), user)
}

// A refused ref update (here by a reference-transaction hook) changes
// nothing.
func TestCommitRefUpdateRefused(t *testing.T) {
	r := newRepo(t)
	userMess(t, r)
	hookT(t, r.abs(".git/hooks/reference-transaction"), `[ "$1" = prepared ] && exit 1; exit 0`)
	b := baselineT(t, r)
	writeT(t, r, "clean.txt", "agent\n")
	changed := changedT(t, r, b)
	head, _ := r.Head()
	before := statusT(t, r)
	if _, err := r.Commit(changed, "m"); err == nil {
		t.Fatal("commit succeeded")
	}
	if now, _ := r.Head(); now != head {
		t.Fatalf("HEAD moved to %s", now)
	}
	equalT(t, "status", statusT(t, r), before)
}

// Another git holding index.lock for a moment is waited for; one holding
// it for good makes Commit undo its commit.
func TestCommitIndexLocked(t *testing.T) {
	r := newRepo(t)
	userMess(t, r)
	lock := r.abs(".git/index.lock")
	b := baselineT(t, r)
	writeT(t, r, "clean.txt", "agent\n")
	changed := changedT(t, r, b)
	head, _ := r.Head()
	before := statusT(t, r)

	writeT(t, r, ".git/index.lock", "")
	t.Cleanup(func() { os.Remove(lock) })
	if _, err := r.Commit(changed, "m"); err == nil || !strings.Contains(err.Error(), "undone") {
		t.Fatalf("err = %v", err)
	}
	if now, _ := r.Head(); now != head {
		t.Fatalf("HEAD left at %s", now)
	}
	os.Remove(lock)
	equalT(t, "status", statusT(t, r), before)

	writeT(t, r, ".git/index.lock", "")
	go func() { time.Sleep(100 * time.Millisecond); os.Remove(lock) }()
	if _, err := r.Commit(changed, "m"); err != nil {
		t.Fatal(err)
	}
	equalT(t, "status", gitT(t, r.Root, "status", "--porcelain", "--", "clean.txt"), "")
}

// bh's commits never start git's housekeeping; Maintain does.
func TestCommitStartsNoMaintenance(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace")
	t.Setenv("GIT_TRACE", trace)
	for _, porcelain := range []bool{false, true} {
		r := newRepo(t)
		commitFiles(t, r, map[string]string{"a.txt": "a\n"})
		if porcelain {
			forcePorcelain(t, r)
		}
		os.Remove(trace)
		writeT(t, r, "a.txt", "agent\n")
		if _, err := r.Commit([]string{"a.txt"}, "m"); err != nil {
			t.Fatal(err)
		}
		if log := readFileT(t, trace); strings.Contains(log, "maintenance") || strings.Contains(log, " gc ") {
			t.Fatalf("porcelain %v: housekeeping ran:\n%s", porcelain, log)
		}
		if err := r.Maintain(); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(readFileT(t, trace), "maintenance run --auto") {
			t.Fatal("Maintain ran no maintenance")
		}
	}
}

func TestCleanMessage(t *testing.T) {
	for _, msg := range []string{
		"subject", "subject\n", "\n\n  subject  \t\n\n\n\nbody\r\n\n", "# title\n\n#body\n",
		"a\n \t\nb", "  lead\n", "\n\n", "", "tab\tinside  \n\n\n",
	} {
		cmd := exec.Command("git", "stripspace")
		cmd.Stdin = strings.NewReader(msg)
		want, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		equalT(t, "clean "+msg, cleanMessage(msg), string(want))
	}
}

// On an unborn branch, undoing the commit leaves the branch unborn again.
func TestCommitIndexLockedUnborn(t *testing.T) {
	r := newRepo(t)
	writeT(t, r, "mine.txt", "user\n")
	b := baselineT(t, r)
	writeT(t, r, "agent.txt", "agent\n")
	changed := changedT(t, r, b)
	before := statusT(t, r)
	writeT(t, r, ".git/index.lock", "")
	t.Cleanup(func() { os.Remove(r.abs(".git/index.lock")) })
	if _, err := r.Commit(changed, "m"); err == nil || !strings.Contains(err.Error(), "undone") {
		t.Fatalf("err = %v", err)
	}
	if head, err := r.Head(); head != "" || err != nil {
		t.Fatalf("HEAD %q, %v: not unborn", head, err)
	}
	os.Remove(r.abs(".git/index.lock"))
	equalT(t, "status", statusT(t, r), before)
}
