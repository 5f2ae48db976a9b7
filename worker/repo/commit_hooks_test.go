package repo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bh's commits run the user's commit hooks, wherever core.hooksPath puts
// them, and the hooks see exactly what is being committed.
func TestCommitRunsHooks(t *testing.T) {
	for _, where := range []string{"default", "relative", "home"} {
		t.Run(where, func(t *testing.T) {
			out := t.TempDir()
			t.Setenv("BH_TEST_OUT", out)
			r := newRepo(t)
			userMess(t, r)
			dir := r.abs(".git/hooks")
			switch where {
			case "relative":
				gitT(t, r.Root, "config", "core.hooksPath", ".githooks")
				dir = r.abs(".githooks")
			case "home":
				t.Setenv("HOME", out)
				gitT(t, r.Root, "config", "core.hooksPath", "~/hooks")
				dir = filepath.Join(out, "hooks")
			}
			if !r.plainCommit() {
				t.Fatal("no hook yet, but not a plain commit")
			}
			hookT(t, dir+"/pre-commit", `git diff --cached --name-only > "$BH_TEST_OUT/staged"`)
			hookT(t, dir+"/commit-msg", `echo "Hooked-By: commit-msg" >> "$1"`)
			hookT(t, dir+"/post-commit", `touch "$BH_TEST_OUT/post-commit"`)
			b := baselineT(t, r) // hooks in the tree are the user's files
			writeT(t, r, "clean.txt", "agent\n")
			writeT(t, r, "new.go", "package x\n")
			changed := changedT(t, r, b)
			hash, err := r.Commit(changed, "agent work")
			if err != nil {
				t.Fatal(err)
			}
			equalT(t, "hook saw staged", readFileT(t, filepath.Join(out, "staged")), "clean.txt\nnew.go\n")
			if msg := gitT(t, r.Root, "log", "-1", "--format=%B", hash); !strings.Contains(msg, "Hooked-By: commit-msg") {
				t.Errorf("commit-msg hook did not run: %q", msg)
			}
			if _, err := os.Stat(filepath.Join(out, "post-commit")); err != nil {
				t.Errorf("post-commit hook did not run: %v", err)
			}
			equalT(t, "user's staged work", gitT(t, r.Root, "diff", "--cached", "--name-only"), "staged.txt\n")
		})
	}
}

// Signing is git commit's business: with commit.gpgSign bh's commit is
// signed by the user's signing program.
func TestCommitSigned(t *testing.T) {
	r := newRepo(t)
	commitFiles(t, r, map[string]string{"a.txt": "a\n"})
	gpg := filepath.Join(t.TempDir(), "fake-gpg")
	hookT(t, gpg, `cat >/dev/null
printf '\n[GNUPG:] SIG_CREATED D 1 8 00 1 X\n' >&2
printf -- '-----BEGIN PGP SIGNATURE-----\n\nfake\n-----END PGP SIGNATURE-----\n'`)
	gitT(t, r.Root, "config", "gpg.program", gpg)
	gitT(t, r.Root, "config", "commit.gpgSign", "true")
	b := baselineT(t, r)
	writeT(t, r, "a.txt", "agent\n")
	changed := changedT(t, r, b)
	hash, err := r.Commit(changed, "signed")
	if err != nil {
		t.Fatal(err)
	}
	if raw := gitT(t, r.Root, "cat-file", "commit", hash); !strings.Contains(raw, "gpgsig -----BEGIN PGP SIGNATURE-----") {
		t.Fatalf("commit not signed:\n%s", raw)
	}
}

// Anything plumbing would do differently from git commit sends the commit
// through git commit.
func TestPlainCommitSettings(t *testing.T) {
	for _, c := range []struct {
		key, value string
		plain      bool
	}{
		{"core.fileMode", "true", true},
		{"core.fileMode", "false", false},
		{"core.symlinks", "false", false},
		{"core.ignoreCase", "yes", false},
		{"core.sparseCheckout", "1", false},
		{"commit.gpgSign", "on", false},
		{"commit.gpgSign", "off", true},
		{"commit.gpgSign", "maybe", false},
		{"core.hooksPath", "", false},
		{"core.hooksPath", "~nobody/hooks", false},
		{"core.hooksPath", "/nonexistent/hooks", true},
	} {
		r := newRepo(t)
		gitT(t, r.Root, "config", c.key, c.value)
		if got := r.plainCommit(); got != c.plain {
			t.Errorf("%s=%q: plainCommit() = %v", c.key, c.value, got)
		}
	}
	r := newRepo(t)
	writeT(t, r, ".git/hooks/prepare-commit-msg", "not executable: git decides what that means\n")
	if r.plainCommit() {
		t.Error("plain commit beside a prepare-commit-msg hook")
	}
	r = newRepo(t)
	writeT(t, r, ".git/hooks/pre-commit.sample", "#!/bin/sh\n")
	writeT(t, r, ".git/hooks/pre-push", "#!/bin/sh\n")
	if !r.plainCommit() {
		t.Error("samples and other hooks should not matter")
	}
}

func readFileT(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
