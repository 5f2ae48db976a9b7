package worker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/ending"
	"github.com/bh-tracker/bh/worker/git"
)

// refusingHook installs a commit-msg hook in s's repository that refuses
// every commit, printing why.
func refusingHook(t *testing.T, root string) string {
	t.Helper()
	hook := filepath.Join(root, ".git", "hooks", "commit-msg")
	if err := os.MkdirAll(filepath.Dir(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho 'commit-msg: the subject must name a ticket (ABC-123)' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return hook
}

// A commit-msg hook that refuses bh's commit is named as such: the task
// waits with the hook's output as its question (not "agent error", not
// failed), its work parked and nothing landed. "land anyway" lands it
// without the hooks, and runs no agent.
func TestHookRefusalWaitsWithTheHooksOutput(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	refusingHook(t, s.Root)
	tk := addTask(t, s, "Write the note")
	head := gitT(t, s.Root, "rev-parse", "HEAD")
	f := &fake{steps: []stepFn{step(map[string]string{"note.txt": "a note\n"}, done("wrote the note"))}}
	evs := runWith(t, s, Options{Runner: f})
	got := getTask(t, s, tk.ID)
	if got.State != task.AwaitingInput {
		t.Fatalf("task %s: %s", got.State, got.Summary)
	}
	q := pendingOf(t, got)
	if q.Header != ending.HookTitle || q.Kind() != task.ChoiceQuestion || !strings.Contains(q.Question, "commit-msg hook refused") ||
		!strings.Contains(q.Context, "the subject must name a ticket (ABC-123)") {
		t.Fatalf("question %+v", q)
	}
	if !strings.HasPrefix(got.Summary, "the repository's commit-msg hook refused the commit: ") ||
		strings.Contains(got.Summary, "agent error") {
		t.Errorf("summary %q", got.Summary)
	}
	if fin := finishedEvents(evs); len(fin) != 1 || fin[0].Outcome != ending.HookRefused {
		t.Fatalf("finished: %+v", fin)
	}
	if gitT(t, s.Root, "rev-parse", "HEAD") != head || !refExists(s.Root, git.ParkRef(tk.ID)) || exists(s.Root, "note.txt") {
		t.Fatal("refused work landed, or is not parked")
	}

	if _, err := Respond(s, tk.ID, []task.Answer{{QuestionID: q.ID, Values: []string{ending.HookSkip}}}, "ann"); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Runner: f})
	if got := getTask(t, s, tk.ID); got.State != task.Closed {
		t.Fatalf("after land anyway: %s %q", got.State, got.Summary)
	}
	if b, _ := os.ReadFile(filepath.Join(s.Root, "note.txt")); string(b) != "a note\n" {
		t.Fatalf("note.txt: %q", b)
	}
	if len(f.requests()) != 1 {
		t.Fatal("the answer ran the agent again")
	}
}

// Fixed, the hook runs again and lets the commit through: "land".
func TestHookRefusalLandsOnceTheHookIsFixed(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	hook := refusingHook(t, s.Root)
	tk := addTask(t, s, "Write the note")
	f := &fake{steps: []stepFn{step(map[string]string{"note.txt": "a note\n"}, done("wrote the note"))}}
	runWith(t, s, Options{Runner: f})
	q := pendingOf(t, getTask(t, s, tk.ID))
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho ran >> \"$(git rev-parse --git-common-dir)/hook-ran\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Respond(s, tk.ID, []task.Answer{{QuestionID: q.ID, Values: []string{ending.HookLand}}}, "ann"); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Runner: f})
	if got := getTask(t, s, tk.ID); got.State != task.Closed {
		t.Fatalf("after land: %s %q", got.State, got.Summary)
	}
	if !exists(s.Root, ".git/hook-ran") {
		t.Fatal("the fixed hook did not run")
	}
}

// A completion that changed no file lands only its task file, and says so
// in the task's summary and in its history.
func TestCompletionWithNoChangeSaysSo(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tk := addTask(t, s, "Nothing to do, it turns out")
	evs := runWith(t, s, Options{Runner: &fake{steps: []stepFn{step(nil, done("found it done already"))}}})
	got := getTask(t, s, tk.ID)
	if got.State != task.Closed || got.Summary != "found it done already "+ending.NoChangeNote {
		t.Fatalf("task %s: %q", got.State, got.Summary)
	}
	if note := lastNote(got); !strings.Contains(note, "no change to any file") {
		t.Errorf("history note %q", note)
	}
	if fin := finishedEvents(evs); len(fin) != 1 || !strings.HasSuffix(fin[0].Summary, ending.NoChangeNote) {
		t.Errorf("finished: %+v", fin)
	}
}
