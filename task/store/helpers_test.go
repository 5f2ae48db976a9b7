package store

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/internal/tasktest"
)

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(childMain())
	}
	// Files settle after 100 ms instead of 2 s, so cache tests need not wait.
	racySlack = 100 * time.Millisecond
	fakeapi.MemoryTemp() // no agent runs in a sandbox here
	os.Exit(fakeapi.Isolated(m.Run))
}

// settle waits until files written so far may be trusted by the cache.
func settle() { time.Sleep(racySlack + 20*time.Millisecond) }

// gitInit makes dir a real git repository.
func gitInit(tb testing.TB, dir string) {
	tb.Helper()
	git(tb, dir, "init", "-q")
}

func git(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// newStore is bh init in a fresh git repository.
func newStore(tb testing.TB) *Store {
	tb.Helper()
	dir := tb.TempDir()
	gitInit(tb, dir)
	s, _, err := Init(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var mu sync.Mutex // a clock that ticks a second a call, for any goroutine
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	s.Now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}
	return s
}

// writeStore writes n generated tasks straight into s, two at a time.
func writeStore(tb testing.TB, s *Store, n int) {
	tb.Helper()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for w := range 2 {
		wg.Go(func() {
			for i := w; i < n; i += 2 {
				b, err := task.Render(tasktest.GenTask(i, n), nil)
				if err == nil {
					err = os.WriteFile(s.Path(tasktest.GenID(i)), b, 0o644)
				}
				if err != nil {
					errs[w] = err
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			tb.Fatal(err)
		}
	}
}

func writeFile(tb testing.TB, path, body string) {
	tb.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		tb.Fatal(err)
	}
}

func readFile(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func taskFile(s *Store, id string) string { return filepath.Join(s.Dir, "tasks", id+".yaml") }

// trim makes t brief: its history cut to the last question asked.
func trim(t *task.Task) {
	var h []task.Event
	if ask, ok := t.LastAsked(); ok {
		h = []task.Event{ask}
	}
	t.Trim(h)
}
