// Package gittest is the fixtures of tests that drive the real git: a
// repository made on main, git run in a folder, files written, read and
// hashed. It imports nothing of bh's, so worker/git's own tests use it too.
package gittest

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Isolate keeps the machine's git configuration out of a test; a test
// binary whose TestMain isolated every test already (IsolateAll) may run
// its tests in parallel, which t.Setenv refuses.
func Isolate(t testing.TB) {
	t.Helper()
	if os.Getenv("GIT_CONFIG_GLOBAL") == os.DevNull && os.Getenv("GIT_CONFIG_NOSYSTEM") == "1" {
		return
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
}

// IsolateAll keeps the machine's git configuration out of every test of
// the binary: call it in TestMain.
func IsolateAll() {
	os.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
}

// Init makes a repository on main with files committed (an empty commit
// when there are none) and returns its folder.
func Init(t testing.TB, files map[string]string) string {
	t.Helper()
	Isolate(t)
	dir := filepath.Join(t.TempDir(), "main")
	Empty(t, dir)
	for p, c := range files {
		Write(t, dir, p, c)
	}
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-q", "--allow-empty", "-m", "initial")
	return dir
}

// Empty makes dir an empty repository on main, with an identity of its own.
func Empty(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	Git(t, dir, "init", "-q", "-b", "main")
	Git(t, dir, "config", "user.name", "Test User")
	Git(t, dir, "config", "user.email", "test@example.com")
}

// Git runs git in dir and returns its stdout, failing the test on error.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// Out is Git's output less its last newline: one line, or lines to split.
func Out(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return strings.TrimSuffix(Git(t, dir, args...), "\n")
}

// Write writes a file at rel below dir, with its folders.
func Write(t testing.TB, dir, rel, content string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Read is the content of the file at rel below dir.
func Read(t testing.TB, dir, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Exists reports whether anything is at rel below dir (a link is not followed).
func Exists(dir, rel string) bool {
	_, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
	return err == nil
}

// Hashes hashes every file of the tree at dir (not .git), mode included.
func Hashes(t testing.TB, dir string) map[string]string {
	t.Helper()
	sums := map[string]string{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if fi.Name() == ".git" {
			if fi.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if fi.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		sums[filepath.ToSlash(rel)] = fi.Mode().String() + " " + hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sums
}

// Status is the porcelain status of the tree at dir, ignored files
// included, one entry a line; it takes no optional lock, so the index file
// stays byte for byte as it was.
func Status(t testing.TB, dir string) []string {
	t.Helper()
	lines := splitNul(Git(t, dir, "--no-optional-locks", "status", "--porcelain", "-z", "--untracked-files=all", "--ignored"))
	sort.Strings(lines)
	return lines
}

// FileHash hashes one file (the index, say).
func FileHash(t testing.TB, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Tree lists the files of commit's tree, with their blob hashes.
func Tree(t testing.TB, dir, commit string) map[string]string {
	t.Helper()
	files := map[string]string{}
	for _, line := range splitNul(Git(t, dir, "ls-tree", "-r", "-z", commit)) {
		meta, p, _ := strings.Cut(line, "\t")
		files[p] = strings.Fields(meta)[2]
	}
	return files
}

// Rev is the object rev names in dir's repository.
func Rev(t testing.TB, dir, rev string) string {
	t.Helper()
	return strings.TrimSpace(Git(t, dir, "rev-parse", rev))
}

// CommitAll commits everything in dir and returns the commit.
func CommitAll(t testing.TB, dir, msg string) string {
	t.Helper()
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-q", "-m", msg)
	return Rev(t, dir, "HEAD")
}

func splitNul(s string) []string {
	if s = strings.TrimSuffix(s, "\x00"); s == "" {
		return nil
	}
	return strings.Split(s, "\x00")
}
