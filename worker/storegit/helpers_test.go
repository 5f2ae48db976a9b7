package storegit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
)

func TestMain(m *testing.M) {
	fakeapi.MemoryTemp() // no agent runs in a sandbox here
	os.Exit(fakeapi.Isolated(m.Run))
}

// newStore makes a real git repository with one commit and bh initialised
// (and committed) in it.
func newStore(t testing.TB) *store.Store {
	t.Helper()
	dir := t.TempDir()
	if err := git.InitDemo(dir); err != nil {
		t.Fatal(err)
	}
	s, _, err := store.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, "add", ".bh")
	gitT(t, dir, "commit", "-q", "-m", "bh init")
	return s
}

// sharedStore is newStore with bh's merge driver and a bare remote,
// origin, named by remote: in the config and holding its branch.
func sharedStore(t *testing.T) (*store.Store, string) {
	t.Helper()
	s := newStore(t)
	if err := RegisterMergeDriver(s.Root); err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(t.TempDir(), "remote.git")
	gitT(t, s.Root, "init", "-q", "--bare", bare)
	gitT(t, s.Root, "remote", "add", "origin", bare)
	writeFile(t, s.Root, ".bh/config.yaml", "prefix: tm\nremote: origin\n")
	gitT(t, s.Root, "commit", "-q", "-am", "share")
	gitT(t, s.Root, "push", "-q", "origin", "HEAD")
	s, err := store.Find(s.Root)
	if err != nil {
		t.Fatal(err)
	}
	return s, bare
}

func gitT(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimRight(string(out), "\n")
}

func writeFile(t testing.TB, dir, name, body string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t testing.TB, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func addTask(t testing.TB, s *store.Store, title string) *task.Task {
	t.Helper()
	tk, err := s.Create(&task.Task{Title: title})
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

func getTask(t testing.TB, s *store.Store, id string) *task.Task {
	t.Helper()
	tk, err := s.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}
