package worker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/ending"
)

// ticketHook installs a commit-msg hook in the repository at root that
// refuses a commit until the tree it is over holds ticket.txt, printing
// why; it fails otherwise unless given bh's commit message.
func ticketHook(t *testing.T, root string) {
	t.Helper()
	hook := filepath.Join(root, ".git", "hooks", "commit-msg")
	if err := os.MkdirAll(filepath.Dir(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\ngrep -q 'Write the note' \"$1\" || exit 9\n" +
		"[ -f ticket.txt ] || { echo 'commit-msg: the work must name a ticket (ticket.txt)' >&2; exit 1; }\n"
	if err := os.WriteFile(hook, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// A commit-msg hook of the user's runs over the agent's work, in the
// sandbox as a check does, never through bh's git; its refusal goes back
// to the agent's session with its output, as a failing check's, nothing
// landing until it passes.
func TestHookRefusalGoesBackToTheAgent(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	s := newStore(t)
	ticketHook(t, s.Root)
	tk := addTask(t, s, "Write the note")
	head := gitT(t, s.Root, "rev-parse", "HEAD")
	f := &fake{steps: []stepFn{
		step(map[string]string{"note.txt": "a note\n"}, done("wrote the note")),
		func(ctx context.Context, req agent.Request) (*agent.Outcome, error) {
			if gitT(t, s.Root, "rev-parse", "HEAD") != head || exists(s.Root, "note.txt") {
				t.Error("refused work landed")
			}
			return step(map[string]string{"ticket.txt": "ABC-123\n"}, done("named the ticket"))(ctx, req)
		},
	}}
	runWith(t, s, Options{Runner: f})
	got := getTask(t, s, tk.ID)
	if got.State != task.Closed {
		t.Fatalf("task %s: %s", got.State, lastNote(got))
	}
	reqs := f.requests()
	if len(reqs) != 2 || !reqs[1].Resume || reqs[1].SessionID != reqs[0].SessionID {
		t.Fatalf("requests %+v, want a second one resuming the first's session", reqs)
	}
	for _, want := range []string{"commit-msg", "the work must name a ticket (ticket.txt)", "round 1 of 3"} {
		if !strings.Contains(reqs[1].Prompt, want) {
			t.Errorf("resume prompt lacks %q:\n%s", want, reqs[1].Prompt)
		}
	}
	evs := checkEvents(got)
	if len(evs) != 2 || evs[0].ExitCode != 1 || evs[1].ExitCode != 0 || !strings.Contains(evs[0].Command, "commit-msg") {
		t.Fatalf("check events %+v, want the hook failing, then passing", evs)
	}
	if readFile(t, s.Root, "note.txt") != "a note\n" || readFile(t, s.Root, "ticket.txt") != "ABC-123\n" {
		t.Fatal("the work did not land")
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
