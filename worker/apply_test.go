package worker

import (
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
)

func TestCompletedCommitsOnlyTheAgentsWork(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	dir := s.Root
	writeFile(t, dir, "user.txt", "tracked\n")
	gitT(t, dir, "add", "user.txt")
	gitT(t, dir, "commit", "-q", "-m", "user file")
	writeFile(t, dir, "user.txt", "tracked, edited by the user\n") // dirty
	writeFile(t, dir, "scratch.txt", "untracked notes\n")          // untracked
	writeFile(t, dir, "staged.txt", "staged by the user\n")
	gitT(t, dir, "add", "staged.txt")
	tk := addTask(t, s, "Add the feature")

	f := &fake{steps: []stepFn{
		step(map[string]string{"feature.go": "package feature\n", "README.md": ""}, done("Added feature.go.")),
	}}
	evs := runOnce(t, s, f)

	want := []string{".bh/tasks/" + tk.ID + ".yaml", "README.md", "feature.go"}
	if got := committed(t, dir, "HEAD"); !slices.Equal(got, want) {
		t.Fatalf("commit holds %v, want %v", got, want)
	}
	msg := gitT(t, dir, "log", "-1", "--format=%B")
	for _, w := range []string{tk.ID + ": Add the feature", "Added feature.go.", "bh-task: " + tk.ID} {
		if !strings.Contains(msg, w) {
			t.Errorf("commit message lacks %q:\n%s", w, msg)
		}
	}
	// The user's work is all still there, and still uncommitted.
	if readFile(t, dir, "user.txt") != "tracked, edited by the user\n" || readFile(t, dir, "scratch.txt") != "untracked notes\n" {
		t.Fatal("user's files changed")
	}
	st := gitT(t, dir, "status", "--porcelain")
	for _, w := range []string{" M user.txt", "?? scratch.txt", "A  staged.txt"} {
		if !strings.Contains(st, w) {
			t.Errorf("status lacks %q:\n%s", w, st)
		}
	}
	if strings.Contains(st, tk.ID) {
		t.Errorf("task file left dirty after its commit:\n%s", st)
	}

	got := getTask(t, s, tk.ID)
	if got.State != task.Closed || got.Summary != "Added feature.go." || got.Lease != nil {
		t.Fatalf("task after completion: state %s summary %q lease %v", got.State, got.Summary, got.Lease)
	}
	for _, k := range []string{task.EventRunStarted, task.EventRunFinished, task.EventCommit} {
		if _, ok := lastEvent(got, k); !ok {
			t.Errorf("history lacks %s", k)
		}
	}
	fin := finishedEvents(evs)
	if len(fin) != 1 || fin[0].Outcome != ending.Completed || fin[0].Commit != gitT(t, dir, "rev-parse", "HEAD") {
		t.Fatalf("finished events: %+v", fin)
	}
	if r := f.requests(); len(r) != 1 || r[0].Resume || r[0].SessionID != got.SessionID || r[0].Dir == dir {
		t.Fatalf("request: %+v, task session %q", r, got.SessionID)
	}
}

func TestCompletedWithoutChangesCommitsTheTaskFile(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := addTask(t, s, "Check something")
	runOnce(t, s, &fake{steps: []stepFn{step(nil, done("Nothing to change."))}})
	if got := committed(t, s.Root, "HEAD"); !slices.Equal(got, []string{".bh/tasks/" + tk.ID + ".yaml"}) {
		t.Fatalf("commit holds %v", got)
	}
}

func TestFailedRollsBackOnlyTheAgentsWork(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	dir := s.Root
	writeFile(t, dir, "notes.txt", "mine\n")
	head := gitT(t, dir, "rev-parse", "HEAD")
	tk := addTask(t, s, "Try something")
	res := agent.Result{Status: agent.StatusFailed, Summary: "Could not do it.", Details: "tests fail"}
	evs := runOnce(t, s, &fake{steps: []stepFn{
		step(map[string]string{"new.go": "package x\n", "README.md": "clobbered\n", "notes.txt": "agent wrote here too\n"}, res),
	}})
	if gitT(t, dir, "rev-parse", "HEAD") != head {
		t.Fatal("a failed run committed")
	}
	if exists(dir, "new.go") || readFile(t, dir, "README.md") != "# bh demo\n" {
		t.Fatal("agent's changes not rolled back")
	}
	if readFile(t, dir, "notes.txt") != "mine\n" {
		t.Fatalf("user's untracked file not restored: %q", readFile(t, dir, "notes.txt"))
	}
	got := getTask(t, s, tk.ID)
	if got.State != task.Failed || got.Summary != "Could not do it." || got.Details != "tests fail" || got.Lease != nil {
		t.Fatalf("task: %+v", got)
	}
	if e, ok := lastEvent(got, task.EventRollback); !ok || !strings.Contains(e.Text, "new.go") {
		t.Fatalf("rollback event: %+v", e)
	}
	if fin := finishedEvents(evs); len(fin) != 1 || fin[0].Outcome != ending.Failed {
		t.Fatalf("finished: %+v", fin)
	}
}

func TestBlockedParksWithTheReason(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := addTask(t, s, "Deploy")
	res := agent.Result{Status: agent.StatusBlocked, Summary: "The staging database is down."}
	f := &fake{steps: []stepFn{step(map[string]string{"deploy.sh": "x\n"}, res), step(nil, done("deployed"))}}
	evs := runOnce(t, s, f)
	got := getTask(t, s, tk.ID)
	if got.State != task.Blocked || got.Question != "The staging database is down." || len(got.Pending()) != 0 {
		t.Fatalf("task: state %s question %q pending %v", got.State, got.Question, got.Pending())
	}
	if !refExists(s.Root, git.ParkRef(tk.ID)) || exists(s.Root, "deploy.sh") {
		t.Fatal("blocked work not parked")
	}
	if fin := finishedEvents(evs); len(fin) != 1 || fin[0].Outcome != ending.Blocked || fin[0].Question == "" {
		t.Fatalf("finished: %+v", fin)
	}
	// A human unblocks it; the same session goes on with its work back.
	s.Update(tk.ID, func(tk *task.Task) error { return tk.SetState(task.Open, now(s), "human", "db is back") })
	runOnce(t, s, f)
	if r := f.requests(); !r[1].Resume || r[1].SessionID != r[0].SessionID {
		t.Fatalf("unblocked run: %+v", r[1])
	}
	if c := committed(t, s.Root, "HEAD"); !slices.Equal(c, []string{".bh/tasks/" + tk.ID + ".yaml", "deploy.sh"}) {
		t.Fatalf("unblocked commit: %v", c)
	}
}

func TestUnknownAgentKindIsAnError(t *testing.T) {
	t.Parallel()
	if _, err := NewRunner(config.AgentConfig{Kind: "gpt"}, nil); err == nil || !strings.Contains(err.Error(), "gpt") {
		t.Fatalf("got %v", err)
	}
	if _, err := NewRunner(config.AgentConfig{Kind: "command"}, nil); err == nil {
		t.Fatal("command without argv accepted")
	}
	if _, err := NewRunner(config.AgentConfig{Timeout: config.ParseDuration("soon")}, nil); err == nil {
		t.Fatal("bad timeout accepted")
	}
	if r, err := NewRunner(config.AgentConfig{}, nil); err != nil || r == nil {
		t.Fatalf("default runner: %v", err)
	}
	if r, err := NewRunner(config.AgentConfig{Kind: "codex"}, nil); err != nil {
		t.Fatalf("codex runner: %v", err)
	} else if _, ok := r.(*agent.Codex); !ok {
		t.Fatalf("codex runner is a %T", r)
	}
}
