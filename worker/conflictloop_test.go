package worker

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/agent/fakeapi"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
	"github.com/bh-tracker/bh/worker/slots"
)

// A landing whose rebase conflicts with the user's own commits, and an
// agent that reports completed without ever touching the conflict (the
// torture run's fake agent, seeds 12 and 3): the work is never committed
// with its conflict markers, nor with anyone else's files, the agent gets
// a bounded number of rounds, and then the human is asked. kept: the
// worktree keeps its rebase in progress between rounds; moved: each round
// finds only the parked snapshot (another machine took the task, or its
// worktree went), the rebase's state gone, only the markers left. Before,
// the snapshot of a conflicted worktree held every commit of the target
// since the task's base, the moved work was committed with it and its
// markers, and each round conflicted in other files, 80 rounds and more.
func TestUnresolvedLandingConflictEndsWithTheHuman(t *testing.T) {
	t.Parallel()
	for _, moved := range []bool{false, true} {
		name := map[bool]string{false: "kept", true: "moved"}[moved]
		t.Run(name, func(t *testing.T) { unresolvedConflict(t, moved) })
	}
}

func unresolvedConflict(t *testing.T, moved bool) {
	s := newStore(t)
	dir := s.Root
	writeFile(t, dir, "shared.txt", "one\n")
	writeFile(t, dir, "user.txt", "mine\n")
	gitT(t, dir, "add", "shared.txt", "user.txt")
	gitT(t, dir, "commit", "-q", "-m", "shared")
	tk := addTask(t, s, "Edit shared")
	gitT(t, dir, "add", ".bh")
	gitT(t, dir, "commit", "-q", "-m", "tasks")

	userRound := 0
	userCommits := func() { // the user commits their own work meanwhile
		userRound++
		writeFile(t, dir, "shared.txt", fmt.Sprintf("the user's %d\n", userRound))
		writeFile(t, dir, "user.txt", fmt.Sprintf("mine %d\n", userRound))
		u := fmt.Sprintf("u-%d.txt", userRound)
		writeFile(t, dir, u, "new\n")
		gitT(t, dir, "add", "shared.txt", "user.txt", u)
		gitT(t, dir, "commit", "-q", "-m", "the user's own")
	}
	steps := []stepFn{func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		userCommits()
		return step(map[string]string{"shared.txt": "the agent's\n"}, done("edited"))(ctx, req)
	}}
	for range 8 {
		steps = append(steps, step(nil, done("resolved, it says"))) // it never touches the conflict
	}
	f := &fake{steps: steps}
	repo := mustRepo(t, s)
	var snaps, commits []string
	target := gitT(t, dir, "branch", "--show-current")
	report := func(e Event) {
		if e.Kind != Finished || e.Outcome != ending.Conflict {
			return
		}
		snaps = append(snaps, gitT(t, dir, "rev-parse", git.ParkRef(tk.ID)))
		if c := gitT(t, dir, "rev-parse", slots.Branch(tk.ID)); strings.Contains(gitT(t, dir, "log", "-1", "--format=%B", c), "bh-task: "+tk.ID) {
			commits = append(commits, c) // the task's commit, as the branch holds it
		}
		if moved {
			gitT(t, dir, "worktree", "remove", "--force", slots.WorktreePath(s, repo, tk.ID))
			gitT(t, dir, "branch", "-D", slots.Branch(tk.ID))
		}
		userCommits()
	}
	ctx, cancel := context.WithTimeout(context.Background(), fakeapi.Patience(time.Minute))
	defer cancel()
	if err := Run(ctx, ctx, s, Options{Runner: f, Once: true, Report: report}); err != nil {
		t.Fatalf("worker: %v", err)
	}

	got := getTask(t, s, tk.ID)
	runs := len(f.requests())
	if got.State != task.AwaitingInput || runs != s.Config.Rounds() {
		t.Fatalf("%s after %d runs (%s), want awaiting_input after %d", got.State, runs, got.Summary, s.Config.Rounds())
	}
	for _, req := range f.requests()[1:] {
		if !req.Resume || !strings.Contains(req.Prompt, "conflicts with "+target) || !strings.Contains(req.Prompt, "shared.txt") {
			t.Errorf("a resolving round's prompt (resume %v):\n%s", req.Resume, req.Prompt)
		}
	}
	// The question says what to type, and the summary no longer says the agent resolves it.
	if q := pendingOf(t, got); q.Header != "Conflict" || !strings.Contains(q.Question, "shared.txt") ||
		!strings.Contains(q.Question, `answer with a few words for the agent, such as "resolved"`) ||
		strings.Contains(got.Summary, "the agent resolves it") {
		t.Errorf("question: %+v, summary %q", q, got.Summary)
	}
	for i, snap := range snaps {
		if paths := lines(gitT(t, dir, "diff", "--name-only", snap+"^", snap)); !slices.Equal(paths, []string{"shared.txt"}) {
			t.Errorf("parked snapshot %d holds %v, want the task's shared.txt only", i+1, paths)
		}
	}
	for _, c := range commits {
		err := exec.Command("git", "-C", dir, "grep", "-q", "-e", "^<<<<<<< ", c).Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("the task's commit %s holds conflict markers (git grep: %v)", c, err)
		}
		if paths := lines(gitT(t, dir, "diff", "--name-only", c+"^", c)); !slices.Equal(paths, []string{"shared.txt"}) {
			t.Errorf("the task's commit %s holds %v, want shared.txt only", c, paths)
		}
	}
	if n := gitT(t, dir, "rev-list", "--count", "--grep", "bh-task: "+tk.ID, target); n != "0" {
		t.Errorf("%s commits of the task landed, want none before the conflict is resolved", n)
	}
}

// A worker killed between git's rebase of a landing and bh's record of
// its new base (simulated: the record made unwritable as the rebase
// starts, which leaves the old one, as the kill did; the ending then
// waits and recovery carries it out). Measured from the old base, the
// work took in the user's commits landed since, and replayed onto the
// user's next commit they conflicted in the user's own files (the
// torture run's first conflict, in u-3.txt). The rebase's base is found
// instead, and the task lands with its own file only.
func TestLandingRebaseKilledBeforeItsBaseIsRecorded(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	dir := s.Root
	writeFile(t, dir, "u.txt", "mine\n")
	gitT(t, dir, "add", "u.txt")
	gitT(t, dir, "commit", "-q", "-m", "the user's")
	tk := addTask(t, s, "Write a")
	gitT(t, dir, "add", ".bh")
	gitT(t, dir, "commit", "-q", "-m", "tasks")
	userCommits := func(body string) {
		writeFile(t, dir, "u.txt", body)
		gitT(t, dir, "add", "u.txt")
		gitT(t, dir, "commit", "-q", "-m", "the user's own")
	}
	var armed atomic.Pointer[string] // the records folder, while the kill is to come
	work := func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
		userCommits("mine 1\n")
		rec := mustRepo(t, s).RecordsDir(req.Dir)
		armed.Store(&rec)
		return step(map[string]string{"a.txt": "agent\n"}, done("wrote a"))(ctx, req)
	}
	before := func(_ string, args []string) { // bh's git runs no hook: the record goes as the rebase starts
		if rec := armed.Load(); rec != nil && slices.Contains(args, "rebase") {
			os.Rename(filepath.Join(*rec, "base"), filepath.Join(*rec, "base.keep"))
			os.Mkdir(filepath.Join(*rec, "base"), 0o755)
		}
	}
	stop, stopNow := context.WithTimeout(context.Background(), fakeapi.Patience(time.Minute))
	defer stopNow()
	waited := false
	report := func(e Event) {
		switch {
		case e.Kind == Warning && e.Task == tk.ID && !waited:
			waited = true // the restart: the record as the kill left it, and the user goes on
			rec := mustRepo(t, s).RecordsDir(slots.WorktreePath(s, mustRepo(t, s), tk.ID))
			os.Remove(filepath.Join(rec, "base"))
			os.Rename(filepath.Join(rec, "base.keep"), filepath.Join(rec, "base"))
			armed.Store(nil)
			userCommits("mine 2\n")
		case e.Kind == Finished && e.Task == tk.ID:
			stopNow()
		}
	}
	f := &fake{steps: []stepFn{work}}
	if err := Run(stop, context.Background(), s, Options{Runner: f, Report: report, Tick: 20 * time.Millisecond,
		GitHooks: git.Hooks{Before: before}}); err != nil {
		t.Fatalf("the worker stopped: %v", err)
	}
	if !waited {
		t.Fatal("the landing's rebase never stopped before its base was recorded")
	}
	if got := getTask(t, s, tk.ID); got.State != task.Closed || len(f.requests()) != 1 {
		t.Fatalf("%s after %d runs (%s), want closed after 1", got.State, len(f.requests()), got.Summary)
	}
	want := []string{".bh/tasks/" + tk.ID + ".yaml", "a.txt"}
	if got := committed(t, dir, "HEAD"); !slices.Equal(got, want) {
		t.Fatalf("the landing holds %v, want %v", got, want)
	}
	if got := readFile(t, dir, "u.txt"); got != "mine 2\n" {
		t.Fatalf("u.txt = %q, want the user's last", got)
	}
}
