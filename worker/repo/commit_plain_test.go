package repo

import (
	"os"
	"strings"
	"testing"
)

// forcePorcelain installs a pre-commit hook that does nothing, so Commit
// must go through git commit.
func forcePorcelain(t *testing.T, r *Repo) {
	t.Helper()
	hookT(t, r.abs(".git/hooks/pre-commit"), "exit 0")
}

func hookT(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(path[:strings.LastIndexByte(path, '/')], 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// fixedDates makes commits of equal content equal commits.
func fixedDates(t *testing.T) {
	t.Setenv("GIT_AUTHOR_DATE", "2024-01-02T03:04:05Z")
	t.Setenv("GIT_COMMITTER_DATE", "2024-01-02T03:04:05Z")
}

// oddScene is a user mid-work and an agent that does every awkward thing
// to the tree: names git could read as options or pathspecs, an exec bit,
// symlinks, a file turned directory and a directory turned file, content
// through a clean filter and through eol conversion. It returns the
// agent's changes.
func oddScene(t *testing.T, r *Repo) []string {
	t.Helper()
	gitT(t, r.Root, "config", "filter.upper.clean", "tr a-z A-Z")
	commitFiles(t, r, map[string]string{
		".gitattributes": "*.up filter=upper\n*.crlf text eol=lf\n",
		"*.txt":          "star\n", "run.sh": "echo hi\n", "f2d": "file\n", "d2f/a.txt": "a\n",
	})
	userMess(t, r)
	b, err := r.Baseline()
	if err != nil {
		t.Fatal(err)
	}
	agentMess(t, r)
	for p, c := range map[string]string{"-dash.txt": "dash\n", ":(top)odd": "top\n", "*.txt": "star v2\n",
		"shout.up": "quiet\n", "win.crlf": "a\r\nb\r\n", "f2d/inner.txt": "in\n"} {
		if p == "f2d/inner.txt" {
			removeT(t, r, "f2d")
		}
		writeT(t, r, p, c)
	}
	removeT(t, r, "d2f/a.txt")
	removeT(t, r, "d2f")
	writeT(t, r, "d2f", "now a file\n")
	if err := os.Chmod(r.abs("run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("clean.txt", r.abs("link")); err != nil {
		t.Fatal(err)
	}
	changed, err := r.Changed(b)
	if err != nil {
		t.Fatal(err)
	}
	return changed
}

// Plumbing and git commit must make the very same commit, index and tree.
func TestCommitPlumbingEqualsGitCommit(t *testing.T) {
	fixedDates(t)
	for _, unborn := range []bool{false, true} {
		var commits, indexes, statuses, reflogs [2]string
		for i, porcelain := range []bool{false, true} {
			r := newRepo(t)
			var changed []string
			if unborn {
				writeT(t, r, "staged.txt", "staged\n")
				gitT(t, r.Root, "add", "staged.txt")
				writeT(t, r, "mine.txt", "untracked\n")
				b := baselineT(t, r)
				writeT(t, r, "a/new.go", "package a\n")
				writeT(t, r, "-x", "x\n")
				changed = changedT(t, r, b)
			} else {
				changed = oddScene(t, r)
			}
			if porcelain {
				forcePorcelain(t, r)
			}
			if got := r.plainCommit(); got == porcelain {
				t.Fatalf("plainCommit() = %v with porcelain %v", got, porcelain)
			}
			hash, err := r.Commit(changed, "agent work\n\n# kept  \n\n\n")
			if err != nil {
				t.Fatalf("porcelain %v: %v", porcelain, err)
			}
			commits[i] = hash
			indexes[i] = gitT(t, r.Root, "ls-files", "-s", "-z")
			statuses[i] = statusT(t, r)
			reflogs[i] = gitT(t, r.Root, "reflog", "-1", "--format=%gs")
			gitT(t, r.Root, "fsck", "--strict", "--no-dangling")
		}
		equalT(t, "commit", commits[0], commits[1])
		equalT(t, "index", indexes[0], indexes[1])
		equalT(t, "status", statuses[0], statuses[1])
		equalT(t, "reflog", reflogs[0], reflogs[1])
	}
}

// What the plumbing wrote is what the scene asked for.
func TestCommitOddScene(t *testing.T) {
	r := newRepo(t)
	changed := oddScene(t, r)
	hash, err := r.Commit(changed, "odd")
	if err != nil {
		t.Fatal(err)
	}
	tree := gitT(t, r.Root, "ls-tree", "-r", hash)
	for _, want := range []string{"100755 blob", "\trun.sh", "120000 blob", "\tlink", "\t-dash.txt", "\t:(top)odd",
		"\tf2d/inner.txt", "\td2f\n"} {
		if !strings.Contains(tree, want) {
			t.Errorf("tree lacks %q:\n%s", want, tree)
		}
	}
	equalT(t, "filtered", gitT(t, r.Root, "show", hash+":shout.up"), "QUIET\n")
	equalT(t, "eol", gitT(t, r.Root, "show", hash+":win.crlf"), "a\nb\n")
	equalT(t, "link", gitT(t, r.Root, "show", hash+":link"), "clean.txt")
	equalT(t, "user's staged work", gitT(t, r.Root, "diff", "--cached", "--name-only"), "")
	// staged.txt was the user's staged file, but the agent rewrote it: committed whole
	equalT(t, "unstaged", gitT(t, r.Root, "diff", "--name-only"), "")
	equalT(t, "untracked", gitT(t, r.Root, "ls-files", "--others", "--exclude-standard"), "")
}

// A directory the agent replaced by a symlink: the files that were in it
// are gone from the tree, even where the link's target has files of the
// same names, as git sees it.
func TestCommitDirectoryBecameSymlink(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"d/x.txt": "x\n", "other/x.txt": "other x\n"})
	b := baselineT(t, r)
	removeT(t, r, "d/x.txt")
	removeT(t, r, "d")
	if err := os.Symlink("other", r.abs("d")); err != nil {
		t.Fatal(err)
	}
	changed := changedT(t, r, b)
	equalT(t, "changed", changed, []string{"d", "d/x.txt"})
	hash, err := r.Commit(changed, "link")
	if err != nil {
		t.Fatal(err)
	}
	equalT(t, "tree", gitT(t, r.Root, "ls-tree", "-r", "--name-only", hash), "d\nother/x.txt\n")
	equalT(t, "status", gitT(t, r.Root, "status", "--porcelain"), "")
}
