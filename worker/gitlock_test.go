package worker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/slots"
)

// lockScenario is one way a run ends, each through its own git steps:
// claim (the worktree and its branch) then commit and land, park, or
// discard.
type lockScenario struct {
	name string
	res  agent.Result
}

var lockScenarios = []lockScenario{
	{"land", done("wrote it")},
	{"park", agent.Result{Status: agent.StatusNeedsInput, Summary: "asks",
		Questions: []agent.Question{{Question: "Which?", Options: []agent.Option{{Label: "A"}, {Label: "B"}}}}}},
	{"discard", agent.Result{Status: agent.StatusFailed, Summary: "gave up"}},
}

// lockKinds are the locks the user's git (or a killed one) holds: the
// index of the tree a step runs in, the target branch, the task's
// branch, packed-refs.
var lockKinds = map[string]func(root, id, dir string) string{
	"index": func(root, id, dir string) string { return filepath.Join(gitDirOf(dir), "index.lock") },
	"target": func(root, id, dir string) string {
		head, _ := os.ReadFile(filepath.Join(root, ".git/HEAD")) // the user's checked-out branch
		return filepath.Join(root, ".git", strings.TrimSpace(strings.TrimPrefix(string(head), "ref:"))+".lock")
	},
	"branch": func(root, id, dir string) string {
		return filepath.Join(root, ".git/refs/heads", slots.Branch(id)+".lock")
	},
	"packed-refs": func(root, id, dir string) string { return filepath.Join(root, ".git/packed-refs.lock") },
	"parked":      func(root, id, dir string) string { return filepath.Join(root, ".git", git.ParkRef(id)+".lock") },
}

func gitDirOf(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, ".git"))
	if g, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: "); err == nil && ok {
		return g
	}
	return filepath.Join(dir, ".git")
}

// fault holds a lock from the at-th git command on, and lets it go when
// a git step reports it waits for it: the holder finishing meanwhile.
type fault struct {
	mu      sync.Mutex
	kind    string
	at      int
	n       int    // git commands so far
	held    string // the lock held, "" when none
	hitAt   int    // the command that waited for it, 0 if none did
	hitStep string
}

func (f *fault) hooks(root string, id *string) git.Hooks {
	return git.Hooks{
		Before: func(dir string, args []string) {
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.n++; f.n == f.at && f.kind != "" {
				f.held = lockKinds[f.kind](root, *id, dir)
				os.MkdirAll(filepath.Dir(f.held), 0o755)
				os.WriteFile(f.held, nil, 0o644)
			}
		},
		Wait: func(w git.LockWait) {
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.held != "" && w.Path == f.held {
				os.Remove(f.held)
				f.held, f.hitAt, f.hitStep = "", f.n, strings.Join(w.Args, " ")
			}
		},
	}
}

// lockRun runs one task through sc with the fault and says how it ended.
func lockRun(t *testing.T, sc lockScenario, f *fault) string {
	t.Helper()
	s := newStore(t)
	tk := addTask(t, s, "Locked out")
	var warnings []string
	var mu sync.Mutex
	opt := Options{Once: true, Runner: &fake{steps: []stepFn{step(map[string]string{"w.txt": "work\n"}, sc.res)}},
		GitHooks: f.hooks(s.Root, &tk.ID), Report: func(e Event) {
			if e.Kind == Warning {
				mu.Lock()
				warnings = append(warnings, e.Summary)
				mu.Unlock()
			}
		}}
	ctx, cancel := context.WithTimeout(context.Background(), fakeapi.Patience(time.Minute))
	defer cancel()
	if err := Run(ctx, ctx, s, opt); err != nil {
		t.Fatalf("%s, lock %s at git command %d: the worker stopped: %v", sc.name, f.kind, f.at, err)
	}
	if f.held != "" {
		os.Remove(f.held) // never needed after it was taken
	}
	got := getTask(t, s, tk.ID)
	wt := slots.WorktreePath(s, mustRepo(t, s), tk.ID)
	return fmt.Sprintf("state=%s work=%v parked=%v worktree=%v warnings=%q", got.State,
		strings.Contains(gitT(t, s.Root, "ls-tree", "-r", "--name-only", "HEAD"), "w.txt"),
		refExists(s.Root, git.ParkRef(tk.ID)), exists(wt, "w.txt"), warnings)
}

func mustRepo(t testing.TB, s *store.Store) *git.Repo {
	r, err := git.Open(s.Root)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A lock held across each git step of claim, commit, land, park and
// discard is waited out: once the holder lets go, every task ends as it
// would have without it, and the worker never stops. Each run arms the
// lock at the git command after the one the previous run's lock stopped,
// so every step that needs a lock is hit once. -short tries one (ending,
// lock) pair in five.
func TestGitLockAtEveryStepIsWaitedOut(t *testing.T) {
	t.Parallel()
	points, pairs := 0, 0
	var kinds []string
	for k := range lockKinds {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, sc := range lockScenarios {
		base := &fault{}
		want := lockRun(t, sc, base)
		for _, kind := range kinds {
			if pairs++; !fakeapi.Sampled(pairs) {
				continue
			}
			hit := map[int]bool{}
			for at := 1; at <= base.n; {
				f := &fault{kind: kind, at: at}
				if got := lockRun(t, sc, f); got != want {
					t.Errorf("%s, %s lock from git command %d (hit at %d: %s):\n got %s\nwant %s",
						sc.name, kind, at, f.hitAt, f.hitStep, got, want)
				}
				if f.hitAt != 0 && !hit[f.hitAt] {
					hit[f.hitAt] = true
					points++
					t.Logf("%s: %s lock waited out by git %s (command %d)", sc.name, kind, f.hitStep, f.hitAt)
				}
				switch {
				case kind == "index": // its path depends on the step's tree: arm it at each
					at++
				case f.hitAt == 0:
					at = base.n + 1 // no later step needs it
				default:
					at = f.hitAt + 1
				}
			}
		}
	}
	t.Logf("fault points covered: %d", points)
	if points == 0 || points < 10 && !testing.Short() {
		t.Fatalf("only %d fault points hit", points)
	}
}

// A lock held past the bound: the worker warns, lands the other task, and
// lands the held one on a tick once the lock is gone.
func TestGitLockPastTheBoundWaitsAndIsRetried(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	held := update(t, s, addTask(t, s, "Held").ID, func(tk *task.Task) { tk.Priority = "P0" })
	other := addTask(t, s, "Other")
	lock := filepath.Join(s.Root, ".git/refs/heads", slots.Branch(held.ID)+".lock")
	hold := func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		os.MkdirAll(filepath.Dir(lock), 0o755)
		os.WriteFile(lock, nil, 0o644) // the user's git takes it, and keeps it
		return step(map[string]string{"held.txt": "held\n"}, done("held"))(ctx, req)
	}
	stop, stopNow := context.WithTimeout(context.Background(), fakeapi.Patience(time.Minute))
	defer stopNow()
	var mu sync.Mutex
	var warned []string
	report := func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case e.Kind == Warning:
			warned = append(warned, e.Summary)
		case e.Kind == Finished && e.Task == other.ID:
			os.Remove(lock) // the user's git is done
		case e.Kind == Finished && e.Task == held.ID:
			stopNow()
		}
	}
	f := &fake{steps: []stepFn{hold, step(map[string]string{"other.txt": "other\n"}, done("other"))}}
	err := Run(stop, context.Background(), s, Options{Runner: f, Report: report, Tick: 20 * time.Millisecond,
		GitLocks: 50 * time.Millisecond})
	if err != nil {
		t.Fatalf("the worker stopped: %v", err)
	}
	for _, tk := range []*task.Task{held, other} {
		if got := getTask(t, s, tk.ID); got.State != task.Closed {
			t.Fatalf("%s is %s", tk.ID, got.State)
		}
	}
	tree := gitT(t, s.Root, "ls-tree", "-r", "--name-only", "HEAD")
	if !strings.Contains(tree, "held.txt") || !strings.Contains(tree, "other.txt") {
		t.Fatalf("landed: %s", tree)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(warned) == 0 || !strings.Contains(warned[0], held.ID+": its ending waits") ||
		!strings.Contains(warned[0], slots.Branch(held.ID)+".lock") {
		t.Fatalf("warnings: %q", warned)
	}
	if EndingWaits(s, held.ID) != "" {
		t.Fatal("a journal still says the ending waits")
	}
}
