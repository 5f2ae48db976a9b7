package usertree

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/worker/git"
)

// TestMain keeps the machine's own git configuration (hooks, signing,
// templates) out of the tests.
func TestMain(m *testing.M) {
	os.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	fakeapi.MemoryTemp() // no agent runs in a sandbox here
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Exit(fakeapi.Isolated(m.Run))
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
func newRepo(t testing.TB) *git.Repo {
	t.Helper()
	dir := t.TempDir()
	gitT(t, dir, "init", "-q", "-b", "main")
	gitT(t, dir, "config", "user.name", "Test User")
	gitT(t, dir, "config", "user.email", "test@example.com")
	r, err := git.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func writeT(t testing.TB, r *git.Repo, p, content string) {
	t.Helper()
	full := filepath.Join(r.Root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// commitFiles writes files and commits everything.
func commitFiles(t testing.TB, r *git.Repo, files map[string]string) {
	t.Helper()
	for p, c := range files {
		writeT(t, r, p, c)
	}
	gitT(t, r.Root, "add", "-A")
	gitT(t, r.Root, "commit", "-q", "-m", "setup")
}

// baselineT records a baseline and fails the test on error.

// wtIsolate keeps the machine's git configuration out of a test.
func wtIsolate(t testing.TB) {
	t.Helper()
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
}

// wtRepo makes a repository on main with files committed, and opens it.
func wtRepo(t testing.TB, files map[string]string) *git.Repo {
	t.Helper()
	wtIsolate(t)
	dir := filepath.Join(t.TempDir(), "main")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	wtGit(t, dir, "init", "-q", "-b", "main")
	wtGit(t, dir, "config", "user.name", "Test User")
	wtGit(t, dir, "config", "user.email", "test@example.com")
	for p, c := range files {
		wtWrite(t, dir, p, c)
	}
	wtGit(t, dir, "add", "-A")
	wtGit(t, dir, "commit", "-q", "--allow-empty", "-m", "initial")
	r, err := git.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// wtGit runs git in dir and returns its stdout, failing the test on error.
func wtGit(t testing.TB, dir string, args ...string) string {
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

func wtWrite(t testing.TB, dir, rel, content string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func wtRead(t testing.TB, dir, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// wtHashes hashes every file of the tree at dir (not .git), mode included.
func wtHashes(t testing.TB, dir string) map[string]string {
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

// wtStatus is the porcelain status of the tree at dir, ignored files
// included, one entry a line; it takes no optional lock, so the index file
// stays byte for byte as it was.
func wtStatus(t testing.TB, dir string) []string {
	t.Helper()
	out := wtGit(t, dir, "--no-optional-locks", "status", "--porcelain", "-z", "--untracked-files=all", "--ignored")
	lines := git.SplitNul([]byte(out))
	sort.Strings(lines)
	return lines
}

// wtEnsure makes task id's worktree from r's HEAD, in a folder of its own.
func wtEnsure(t testing.TB, r *git.Repo, id string) (*git.Worktree, string) {
	t.Helper()
	base := strings.TrimSpace(wtGit(t, r.Root, "rev-parse", "HEAD"))
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

func wtRev(t testing.TB, dir, rev string) string {
	t.Helper()
	return strings.TrimSpace(wtGit(t, dir, "rev-parse", rev))
}

func wtCommitAll(t testing.TB, dir, msg string) string {
	t.Helper()
	wtGit(t, dir, "add", "-A")
	wtGit(t, dir, "commit", "-q", "-m", msg)
	return wtRev(t, dir, "HEAD")
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
