package worker

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bh-tracker/bh/worker/act"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/claims"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/git/gittest"
	"github.com/bh-tracker/bh/worker/storegit/storetest"
)

// newStore makes a real git repository with one commit and bh initialised
// (and committed) in it: a copy of storeTemplate, its index refreshed for
// the copy's files.
func newStore(t testing.TB) *store.Store {
	t.Helper()
	tmpl, err := storeTemplate()
	if err != nil {
		t.Fatal(err)
	}
	dir := storeDir(t)
	if err := os.CopyFS(dir, os.DirFS(tmpl)); err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, "update-index", "-q", "--refresh")
	s, err := store.Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// storeDir is where newStore makes t's repository: in memory
// (fakeapi.MemoryDir) under -short, which runs no real CLI (a real codex's
// own sandbox hides /dev/shm), unless t runs agents in bubblewrap
// (needBwrap), whose own /dev hides it too: what the sandbox refused there
// would be refused for the wrong reason. Git's small writes and fsyncs on
// disk were a third of the package's time under -short (61 s, 44 s with
// the repositories in memory, measured on 2 cores).
func storeDir(t testing.TB) string {
	mem := fakeapi.MemoryDir()
	top, _, _ := strings.Cut(t.Name(), "/")
	if _, inBwrap := sandboxed.Load(top); inBwrap || mem == "" || !testing.Short() {
		return t.TempDir()
	}
	dir, err := os.MkdirTemp(mem, "bh-worker-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(dir); err != nil {
			t.Errorf("remove the test's repository: %v", err)
		}
	})
	return dir
}

// sandboxed holds the names of the tests that run agents in bubblewrap.
var sandboxed sync.Map

// storeTemplate is the repository newStore copies, made once per test
// binary (in the tests' own home, which goes when they end): a dozen git
// commands fewer for each of the package's tests.
var storeTemplate = sync.OnceValues(func() (string, error) {
	dir := filepath.Join(os.Getenv("HOME"), "store-template")
	if err := git.InitDemo(dir); err != nil {
		return "", err
	}
	if _, _, err := store.Init(dir); err != nil {
		return "", err
	}
	for _, args := range [][]string{{"add", ".bh"}, {"commit", "-q", "-m", "bh init"}} {
		c := exec.Command("git", args...)
		c.Dir = dir
		if out, err := c.CombinedOutput(); err != nil {
			return "", fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return dir, nil
})

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

func lines(s string) []string {
	if s == "" {
		return nil
	}
	l := strings.Split(s, "\n")
	sort.Strings(l)
	return l
}

// committed lists the paths the commit at rev changed.
func committed(t testing.TB, dir, rev string) []string {
	return lines(gitT(t, dir, "show", "--name-only", "--format=", rev))
}

func writeFile(t testing.TB, dir, name, body string) {
	t.Helper()
	gittest.Write(t, dir, name, body)
}

func readFile(t testing.TB, dir, name string) string {
	t.Helper()
	return gittest.Read(t, dir, name)
}

func exists(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}

func addTask(t testing.TB, s *store.Store, title string, deps ...string) *task.Task {
	t.Helper()
	return storetest.Add(t, s, title, deps...)
}

func getTask(t testing.TB, s *store.Store, id string) *task.Task {
	t.Helper()
	return storetest.Get(t, s, id)
}

// fake is a scripted agent: each call runs the next step and records the
// request it got.
type fake struct {
	mu    sync.Mutex
	steps []stepFn
	reqs  []agent.Request
}

func (f *fake) Run(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	if len(f.steps) == 0 {
		f.mu.Unlock()
		return nil, &agent.RunError{Reason: "fake agent: no step left", ExitCode: -1}
	}
	step := f.steps[0]
	f.steps = f.steps[1:]
	f.mu.Unlock()
	return step(ctx, req)
}

func (f *fake) requests() []agent.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]agent.Request(nil), f.reqs...)
}

// step writes files (name -> body; "" deletes) into the repository and
// answers with res.
type stepFn = func(ctx context.Context, req agent.Request) (*agent.Outcome, error)

func step(files map[string]string, res agent.Result) stepFn {
	return func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		for name, body := range files {
			p := filepath.Join(req.Dir, name)
			if body == "" {
				os.Remove(p)
				continue
			}
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				return nil, err
			}
		}
		return &agent.Outcome{Result: res, SessionID: req.SessionID}, nil
	}
}

func done(summary string) agent.Result {
	return agent.Result{Status: agent.StatusCompleted, Summary: summary}
}

// runOnce runs a worker until nothing is ready and returns its events.
func runOnce(t testing.TB, s *store.Store, r agent.Runner) []Event {
	t.Helper()
	var mu sync.Mutex
	var evs []Event
	opt := Options{Runner: r, Once: true, Report: func(e Event) { mu.Lock(); evs = append(evs, e); mu.Unlock() }}
	ctx, cancel := context.WithTimeout(context.Background(), fakeapi.Patience(time.Minute))
	defer cancel()
	if err := Run(ctx, ctx, s, opt); err != nil {
		t.Fatalf("worker: %v", err)
	}
	return evs
}

func finishedEvents(evs []Event) []Event {
	var out []Event
	for _, e := range evs {
		if e.Kind == Finished {
			out = append(out, e)
		}
	}
	return out
}

func lastEvent(t *task.Task, kind string) (task.Event, bool) {
	for i := len(t.History) - 1; i >= 0; i-- {
		if t.History[i].Kind == kind {
			return t.History[i], true
		}
	}
	return task.Event{}, false
}

func refExists(dir, ref string) bool {
	cmd := exec.Command("git", "rev-parse", "-q", "--verify", ref)
	cmd.Dir = dir
	return cmd.Run() == nil
}

// resumesAndCommits runs the worker again and checks that the second run
// resumed the first one's session and committed its parked wip.txt with
// the rest.txt it wrote then, in one commit with the task file.
func resumesAndCommits(t *testing.T, s *store.Store, f *fake, id string) {
	t.Helper()
	runOnce(t, s, f)
	reqs := f.requests()
	if len(reqs) < 2 || !reqs[1].Resume || reqs[1].SessionID != reqs[0].SessionID {
		t.Fatalf("no resume of the same session: %+v", reqs)
	}
	want := []string{".bh/tasks/" + id + ".yaml", "rest.txt", "wip.txt"}
	if c := committed(t, s.Root, "HEAD"); !slices.Equal(c, want) {
		t.Fatalf("commit after resume: %v, want %v", c, want)
	}
}

// Respond answers as bh respond does: through the one answer door
// (act.Answer), by "human" unless said.
func Respond(s *store.Store, id string, answers []task.Answer, by string) (*task.Task, error) {
	return act.Answer(s, id, answers, cmp.Or(by, "human"), nil)
}

// now is s's clock, to the second, as claims reads it.
func now(s *store.Store) time.Time { return claims.Clock(s)() }

// landTask is bh land: task id's finished work landed now through the
// door (act.Land), by the worker's landing with opt.
func landTask(ctx context.Context, s *store.Store, id, by string, opt Options) error {
	l, err := NewLanding(s, opt)
	if err != nil {
		return err
	}
	return act.Land(ctx, s, id, by, l)
}
