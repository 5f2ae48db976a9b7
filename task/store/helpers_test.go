package store

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
)

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(childMain())
	}
	// Files settle after 100 ms instead of 2 s, so cache tests need not wait.
	racySlack = 100 * time.Millisecond
	os.Exit(m.Run())
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

// genID is the i-th ID of a generated store: distinct for i < 36^5, and
// scattered so that neighbours in ID order are unrelated.
func genID(i int) string {
	v := strconv.FormatInt(int64(i)*7919%60466176, 36)
	return fmt.Sprintf("tm-%05s", v)
}

// genTask is the i-th task of a realistic store of n: a tenth are parents,
// most others have one; a third depend on two others; a tenth wait for an
// answer, with a question and its context; every one has a few events.
func genTask(i, n int) *task.Task {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
	t := &task.Task{
		ID:          genID(i),
		Title:       fmt.Sprintf("Task %d: make the %s handle retries", i, []string{"parser", "worker", "store", "cli", "api"}[i%5]),
		Description: "The current behaviour drops the request when the upstream times out. Retry with backoff, cap the attempts, and log each retry with the attempt number so that operators can follow it.",
		Type:        task.Types[i%len(task.Types)],
		Priority:    task.Priorities[i%len(task.Priorities)],
		State:       task.Open,
		Labels:      []string{"backend", []string{"ui", "infra", "docs"}[i%3]},
		CreatedAt:   base,
	}
	if i%10 != 0 && i%10 < 8 {
		t.Parent = genID(i - i%10)
	}
	if i%3 == 0 && i >= 7 {
		t.DependsOn = []string{genID(i - 1), genID(i - 7)}
	}
	t.Record(base, task.Event{Kind: task.EventCreated, To: task.Open, By: "alice"})
	switch i % 10 {
	case 1:
		t.SetState(task.InProgress, base.Add(time.Hour), "worker", "")
		t.Record(base.Add(time.Hour), task.Event{Kind: task.EventRunStarted, Session: "4f1c2a9e-1b7d-4c55-9a0e-3f2b8d6c7e10"})
		t.SetState(task.AwaitingInput, base.Add(2*time.Hour), "worker", "")
		t.Question = "Should retries apply to POST requests too, or only to idempotent ones?"
		t.QuestionContext = "POST /orders is not idempotent today: a retried request could create a duplicate order. The client sends no idempotency key. I can add one, or skip retries for POST."
		t.Questions = []task.Question{{ID: "q1", Question: t.Question, Type: "choice", Status: task.QuestionPending, AskedAt: base.Add(2 * time.Hour),
			Options: []task.Option{{Label: "idempotent only"}, {Label: "all, with an idempotency key"}}}}
		t.SessionID = "4f1c2a9e-1b7d-4c55-9a0e-3f2b8d6c7e10"
		t.Record(base.Add(2*time.Hour), task.Event{Kind: task.EventInputRequested, QuestionID: "q1", Text: t.Question, Context: t.QuestionContext})
	case 2, 3:
		t.SetState(task.InProgress, base.Add(time.Hour), "worker", "")
		t.SetState(task.Closed, base.Add(3*time.Hour), "worker", "done")
		t.Summary = "Added retries with exponential backoff."
		t.Record(base.Add(3*time.Hour), task.Event{Kind: task.EventCommit, Commit: "9fceb02d0ae598e95dc970b74767f19372d61af8"})
	case 4:
		t.SetState(task.Blocked, base.Add(time.Hour), "bob", "waiting on the API team")
	case 5:
		t.SetState(task.Deferred, base.Add(time.Hour), "bob", "")
	case 6:
		t.SetState(task.InProgress, base.Add(time.Hour), "worker", "")
	}
	return t
}

// writeStore writes n generated tasks straight into s, two at a time.
func writeStore(tb testing.TB, s *Store, n int) {
	tb.Helper()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for w := range 2 {
		wg.Go(func() {
			for i := w; i < n; i += 2 {
				b, err := task.Encode(genTask(i, n))
				if err == nil {
					err = os.WriteFile(s.Path(genID(i)), b, 0o644)
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
