package claims

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
)

// The test binary doubles as a second bh process, so that claims are
// tested across real processes. BH_CLAIMS_HELPER picks the role.
func TestMain(m *testing.M) {
	switch os.Getenv("BH_CLAIMS_HELPER") {
	case "":
		fakeapi.MemoryTemp() // no agent runs in a sandbox here
		os.Exit(fakeapi.Isolated(m.Run))
	case "claim":
		os.Exit(helperClaim())
	}
	fmt.Fprintln(os.Stderr, "unknown helper")
	os.Exit(2)
}

// helperClaim races for the next task and prints what it won.
func helperClaim() int {
	s, err := store.Find(".")
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	t, err := Next(s, nil, HandLease(now(s)), nil, nil)
	switch {
	case errors.Is(err, ErrNothingReady):
		fmt.Println("none")
	case err != nil:
		fmt.Println("error:", err)
		return 1
	default:
		fmt.Println("won", t.ID)
	}
	return 0
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

func addTask(t testing.TB, s *store.Store, title string, deps ...string) *task.Task {
	t.Helper()
	tk, err := s.Create(&task.Task{Title: title, DependsOn: deps})
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
