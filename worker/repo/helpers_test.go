package repo

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestMain keeps the machine's own git configuration (hooks, signing,
// templates) out of the tests.
func TestMain(m *testing.M) {
	os.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Exit(m.Run())
}

// gitT runs git in dir and fails the test on error.
func gitT(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// newRepo makes an empty repository with a local identity.
func newRepo(t testing.TB) *Repo {
	t.Helper()
	dir := t.TempDir()
	gitT(t, dir, "init", "-q", "-b", "main")
	gitT(t, dir, "config", "user.name", "Test User")
	gitT(t, dir, "config", "user.email", "test@example.com")
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func writeT(t testing.TB, r *Repo, p, content string) {
	t.Helper()
	full := r.abs(p)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readT(t testing.TB, r *Repo, p string) string {
	t.Helper()
	data, err := os.ReadFile(r.abs(p))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func removeT(t testing.TB, r *Repo, p string) {
	t.Helper()
	if err := os.Remove(r.abs(p)); err != nil {
		t.Fatal(err)
	}
}

func exists(r *Repo, p string) bool {
	_, err := os.Lstat(r.abs(p))
	return err == nil
}

// commitFiles writes files and commits everything.
func commitFiles(t testing.TB, r *Repo, files map[string]string) {
	t.Helper()
	for p, c := range files {
		writeT(t, r, p, c)
	}
	gitT(t, r.Root, "add", "-A")
	gitT(t, r.Root, "commit", "-q", "-m", "setup")
}

// statusT is the full porcelain status, ignored files included: equal
// output before and after means the index and the tree came back.
func statusT(t testing.TB, r *Repo) string {
	t.Helper()
	return gitT(t, r.Root, "status", "--porcelain=v2", "-z", "--untracked-files=all", "--ignored")
}

// treeFiles lists every file in the working tree (not .git) with content.
func treeFiles(t testing.TB, r *Repo) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.Walk(r.Root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(r.Root, p)
		if fi.IsDir() {
			if rel == ".git" {
				return filepath.SkipDir
			}
			files[filepath.ToSlash(rel)+"/"] = ""
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = fi.Mode().String() + ":" + string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// commitPaths lists the paths a commit changed against its parent.
func commitPaths(t testing.TB, r *Repo, commit string) []string {
	t.Helper()
	out := gitT(t, r.Root, "diff-tree", "-z", "-r", "--root", "--no-commit-id", "--name-only", commit)
	paths := splitNul([]byte(out))
	sort.Strings(paths)
	return paths
}

func equalT(t testing.TB, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got  %#v\n want %#v", what, got, want)
	}
}

// baselineT records a baseline and fails the test on error.
