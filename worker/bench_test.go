package worker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
)

// BenchmarkRespondToResume is the time from `bh respond` writing its answer
// to an idle worker calling the agent again.
func BenchmarkRespondToResume(b *testing.B) {
	s := newStore(b)
	tk := addTask(b, s, "Asks every time")
	called := make(chan time.Time, 1)
	ask := agent.RunnerFunc(func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		called <- time.Now()
		return &agent.Outcome{Result: agent.Result{Status: agent.StatusNeedsInput, Summary: "?", Question: "Again?"},
			SessionID: req.SessionID}, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- Run(ctx, ctx, s, Options{Runner: ask, Tick: time.Hour}) }()
	<-called
	var total time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		waitState(b, s, tk.ID, task.AwaitingInput)
		b.StartTimer()
		start := time.Now()
		if _, err := Respond(s, tk.ID, []task.Answer{{Values: []string{"yes"}}}, ""); err != nil {
			b.Fatal(err)
		}
		total += (<-called).Sub(start)
	}
	b.StopTimer()
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/resume")
	cancel()
	if err := <-errc; err != nil {
		b.Fatal(err)
	}
}

// BenchmarkOverheadPerTask5000 is the worker's own cost per task (claim,
// baseline, apply, commit) with an instant agent writing one file, in a
// repository of 5,000 tracked files.
func BenchmarkOverheadPerTask5000(b *testing.B) {
	s := newStore(b)
	for i := range 5000 {
		writeFile(b, s.Root, fmt.Sprintf("src/d%02d/f%04d.txt", i%50, i), fmt.Sprintf("file %d\n", i))
	}
	gitT(b, s.Root, "add", "src")
	gitT(b, s.Root, "commit", "-q", "-m", "5000 files")
	// A real repository's files are older than its index. Fresh ones are
	// "racily clean" and rehashed by every git status until the index is
	// rewritten later than them: that is setup cost, not bh's.
	time.Sleep(1100 * time.Millisecond)
	gitT(b, s.Root, "status", "--porcelain")
	n := 0
	instant := agent.RunnerFunc(func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		n++
		p := filepath.Join(req.Dir, "out", fmt.Sprintf("%s-%d.txt", req.TaskID, n))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("done\n"), 0o644); err != nil {
			return nil, err
		}
		return &agent.Outcome{Result: agent.Result{Status: agent.StatusCompleted, Summary: "done"}, SessionID: req.SessionID}, nil
	})
	for i := range b.N {
		addTask(b, s, fmt.Sprintf("Task %d", i))
	}
	b.ResetTimer()
	ctx := context.Background()
	if err := Run(ctx, ctx, s, Options{Runner: instant, Once: true}); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if n != b.N {
		b.Fatalf("%d runs for %d tasks", n, b.N)
	}
	if got := gitT(b, s.Root, "rev-list", "--count", "HEAD"); got != fmt.Sprint(b.N+3) {
		b.Fatalf("%s commits, want %d", got, b.N+3)
	}
}
