package git

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
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
	full := filepath.Join(r.Root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
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

func equalT(t testing.TB, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got  %#v\n want %#v", what, got, want)
	}
}

// baselineT records a baseline and fails the test on error.
