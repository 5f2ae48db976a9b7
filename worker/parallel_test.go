package worker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

// TestJobsRunTasksAtOnceEachInItsWorktree: -j 3 over 12 tasks runs three
// agents at a time, each task once, each in a worktree of its own, and
// lands them one after another on a linear history. The first three runs
// wait for each other, so three at once is what happens on any machine.
func TestJobsRunTasksAtOnceEachInItsWorktree(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	for i := range 12 {
		addTask(t, s, fmt.Sprintf("task %02d", i))
	}
	a := newAtOnce(t, s, 3)
	r := agent.RunnerFunc(a.run)
	runWith(t, s, Options{Runner: r, Once: true, Jobs: 3})
	runs, dirs := a.runs, a.dirs
	if a.peak != 3 {
		t.Errorf("at most %d agents ran at once, want 3", a.peak)
	}
	slots := map[string]bool{}
	for id, n := range runs {
		if n != 1 {
			t.Errorf("%s ran %d times", id, n)
		}
		slots[dirs[id]] = true
		if got := getTask(t, s, id).State; got != task.Closed {
			t.Errorf("%s is %s, want closed", id, got)
		}
		if c := committed(t, s.Root, "HEAD^{/bh-task: "+id+"}"); len(c) != 2 || c[1] != id+".txt" {
			t.Errorf("%s's commit holds %v, want its task file and %s.txt", id, c, id)
		}
	}
	// Three warm slots took the twelve tasks in turn, and are free again.
	if len(slots) != 3 {
		t.Errorf("the tasks ran in %d worktrees, want the pool's 3: %v", len(slots), slots)
	}
	if b := gitT(t, s.Root, "branch", "--list", "bh/*"); b != "" {
		t.Errorf("task branches left after landing: %s", b)
	}
	for d := range slots {
		if head := gitT(t, d, "rev-parse", "--abbrev-ref", "HEAD"); head != "HEAD" {
			t.Errorf("slot %s still holds %s after landing", d, head)
		}
	}
	if len(runs) != 12 {
		t.Errorf("%d tasks ran, want 12", len(runs))
	}
	// Serialized landings: a line of single-parent commits.
	if merges := gitT(t, s.Root, "rev-list", "--merges", "HEAD"); merges != "" {
		t.Errorf("merge commits on main: %s", merges)
	}
	if n := gitT(t, s.Root, "rev-list", "--count", "HEAD"); n != "14" {
		t.Errorf("%s commits on main, want 14 (2 + 12 tasks)", n)
	}
}

// TestLandingConflictGoesBackToTheSameSession: two tasks change the same
// line at once. The first lands; the second's rebase conflicts, so the same
// session is resumed with the conflict to resolve, and its resolution lands.
func TestLandingConflictGoesBackToTheSameSession(t *testing.T) {
	t.Parallel()
	s, a, b := twoEditsOfOneLine(t)
	var mu sync.Mutex
	var reqs []agent.Request
	started := make(chan struct{}, 2)
	r := agent.RunnerFunc(func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		mu.Lock()
		reqs = append(reqs, req)
		n := len(reqs)
		mu.Unlock()
		body := req.TaskID + "'s line\n"
		if n <= 2 {
			started <- struct{}{}
			for len(started) < 2 && ctx.Err() == nil { // both start from the same commit
				time.Sleep(5 * time.Millisecond)
			}
			if req.TaskID == b.ID {
				waitClosed(ctx, s, a.ID) // a lands first
			}
		} else {
			body = a.ID + "'s line\n" + b.ID + "'s line\n" // the resolution
		}
		err := os.WriteFile(filepath.Join(req.Dir, "shared.txt"), []byte(body), 0o644)
		return &agent.Outcome{Result: done("edited"), SessionID: req.SessionID}, err
	})
	evs := runWith(t, s, Options{Runner: r, Once: true, Jobs: 2})
	if len(reqs) != 3 {
		for _, e := range evs {
			t.Logf("%+v", e)
		}
		t.Fatalf("%d runs, want 3 (a, b, b resolving)", len(reqs))
	}
	last := reqs[2]
	branch := gitT(t, s.Root, "branch", "--show-current")
	first := reqs[0]
	if first.TaskID != b.ID {
		first = reqs[1]
	}
	if last.TaskID != b.ID || !last.Resume || last.SessionID != first.SessionID ||
		!strings.Contains(last.Prompt, "conflicts with "+branch) || !strings.Contains(last.Prompt, "shared.txt") {
		t.Errorf("third run: task %s resume %v session %s, prompt:\n%s", last.TaskID, last.Resume, last.SessionID, last.Prompt)
	}
	for _, id := range []string{a.ID, b.ID} {
		if st := getTask(t, s, id).State; st != task.Closed {
			t.Errorf("%s is %s, want closed", id, st)
		}
	}
	if got := readFile(t, s.Root, "shared.txt"); got != a.ID+"'s line\n"+b.ID+"'s line\n" {
		t.Errorf("shared.txt = %q, want both lines", got)
	}
	if st := gitT(t, s.Root, "status", "--porcelain", "--", "shared.txt"); st != "" {
		t.Errorf("shared.txt status %q", st)
	}
}

// BenchmarkTwelveSleepingTasks is the wall time of a worker over 12 tasks
// whose agent sleeps 200 ms, serially and with -j 3 (about a third).
func BenchmarkTwelveSleepingTasks(b *testing.B) {
	for _, jobs := range []int{1, 3} {
		b.Run(fmt.Sprintf("j=%d", jobs), func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				s := newStore(b)
				for i := range 12 {
					addTask(b, s, fmt.Sprintf("task %02d", i))
				}
				sleepy := agent.RunnerFunc(func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
					time.Sleep(200 * time.Millisecond)
					err := os.WriteFile(filepath.Join(req.Dir, req.TaskID+".txt"), []byte("x\n"), 0o644)
					return &agent.Outcome{Result: done("slept"), SessionID: req.SessionID}, err
				})
				b.StartTimer()
				ctx := context.Background()
				if err := Run(ctx, ctx, s, Options{Runner: sleepy, Once: true, Jobs: jobs}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// An agent that cannot resolve its landing conflict is not sent back to it
// forever: after checkRounds rounds (3), the human is asked.
func TestUnresolvedConflictGoesToTheHuman(t *testing.T) {
	t.Parallel()
	s, a, b := twoEditsOfOneLine(t)
	var mu sync.Mutex
	runs := map[string]int{}
	started := make(chan struct{}, 2)
	r := agent.RunnerFunc(func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		mu.Lock()
		runs[req.TaskID]++
		n := runs[req.TaskID]
		mu.Unlock()
		if n == 1 {
			started <- struct{}{}
			for len(started) < 2 && ctx.Err() == nil { // both start from the same commit
				time.Sleep(5 * time.Millisecond)
			}
			if req.TaskID == b.ID {
				waitClosed(ctx, s, a.ID) // a lands first
			}
			os.WriteFile(filepath.Join(req.Dir, "shared.txt"), []byte(req.TaskID+"'s line\n"), 0o644)
		}
		return &agent.Outcome{Result: done("edited"), SessionID: req.SessionID}, nil // b never resolves
	})
	runWith(t, s, Options{Runner: r, Once: true, Jobs: 2})
	if st := getTask(t, s, a.ID).State; st != task.Closed {
		t.Fatalf("a: %s", st)
	}
	got := getTask(t, s, b.ID)
	if got.State != task.AwaitingInput || runs[b.ID] != s.Config.Rounds() {
		t.Fatalf("b: %s after %d runs (%s)", got.State, runs[b.ID], got.Summary)
	}
	if q := pendingOf(t, got); q.Header != "Conflict" || !strings.Contains(q.Question, "shared.txt") {
		t.Errorf("question: %+v", q)
	}
}

// waitClosed waits until task id is closed (or ctx ends): an order of
// events the test needs, however slow the machine.
func waitClosed(ctx context.Context, s *store.Store, id string) {
	for ctx.Err() == nil {
		if t, err := s.Get(id); err == nil && t.State == task.Closed {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// twoEditsOfOneLine is a store whose shared.txt two tasks will both edit.
func twoEditsOfOneLine(t *testing.T) (*store.Store, *task.Task, *task.Task) {
	s := newStore(t)
	writeFile(t, s.Root, "shared.txt", "one line\n")
	gitT(t, s.Root, "add", "shared.txt")
	gitT(t, s.Root, "commit", "-q", "-m", "shared")
	return s, addTask(t, s, "first edit"), addTask(t, s, "second edit")
}

// atOnce is an agent that writes <task>.txt in its worktree and counts
// how many of its runs overlap: its first n runs wait for each other, so
// n at once is what happens on any machine. Two runs in one directory at
// once, or one in the user's tree, fail the test.
type atOnce struct {
	t                  testing.TB
	root               string
	n                  int
	mu                 sync.Mutex
	cur, peak, started int
	all                chan struct{} // closed once the first n started
	runs               map[string]int
	dirs, busy         map[string]string
}

func newAtOnce(t testing.TB, s *store.Store, n int) *atOnce {
	return &atOnce{t: t, root: s.Root, n: n, all: make(chan struct{}), runs: map[string]int{}, dirs: map[string]string{},
		busy: map[string]string{}}
}

func (a *atOnce) run(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
	a.mu.Lock()
	if other := a.busy[req.Dir]; other != "" || req.Dir == a.root {
		a.t.Errorf("%s runs in %s, where %q runs: want a worktree of its own", req.TaskID, req.Dir, other)
	}
	a.busy[req.Dir] = req.TaskID
	a.cur++
	a.peak = max(a.peak, a.cur)
	a.runs[req.TaskID]++
	a.dirs[req.TaskID] = req.Dir
	if a.started++; a.started == a.n {
		close(a.all)
	}
	first := a.started <= a.n
	a.mu.Unlock()
	if first {
		select {
		case <-a.all:
		case <-ctx.Done():
		}
	}
	err := os.WriteFile(filepath.Join(req.Dir, req.TaskID+".txt"), []byte(req.TaskID+"\n"), 0o644)
	a.mu.Lock()
	a.cur--
	delete(a.busy, req.Dir)
	a.mu.Unlock()
	return &agent.Outcome{Result: done("wrote " + req.TaskID), SessionID: req.SessionID}, err
}
