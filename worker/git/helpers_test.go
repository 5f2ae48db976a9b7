package git

import (
	"os"
	"reflect"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/worker/git/gittest"
)

// TestMain keeps the machine's own git configuration (hooks, signing,
// templates) out of the tests.
func TestMain(m *testing.M) {
	gittest.IsolateAll()
	fakeapi.MemoryTemp() // no agent runs in a sandbox here
	os.Exit(fakeapi.Isolated(m.Run))
}

// newRepo makes an empty repository with a local identity.
func newRepo(t testing.TB) *Repo {
	t.Helper()
	dir := t.TempDir()
	gittest.Empty(t, dir)
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func writeT(t testing.TB, r *Repo, p, content string) {
	t.Helper()
	gittest.Write(t, r.Root, p, content)
}

// commitFiles writes files and commits everything.
func commitFiles(t testing.TB, r *Repo, files map[string]string) {
	t.Helper()
	for p, c := range files {
		writeT(t, r, p, c)
	}
	gittest.Git(t, r.Root, "add", "-A")
	gittest.Git(t, r.Root, "commit", "-q", "-m", "setup")
}

func equalT(t testing.TB, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got  %#v\n want %#v", what, got, want)
	}
}

// baselineT records a baseline and fails the test on error.
