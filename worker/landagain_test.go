package worker

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/worker/ending"
)

// A human who answers "land" (bh respond, the board, the web) while their
// own edit is still in the way is refused for the same cause each time:
// the same question waits again, with no second question, notification or
// parked record. Once the edit is gone, the next "land" lands.
func TestLandAnsweredWhileStillInTheWayAsksOnce(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	h := newHook(t)
	s.Config.Notify = []config.NotifyConfig{h.config()}
	tk := addTask(t, s, "Edits the README")
	readme := filepath.Join(s.Root, "README.md")
	if err := os.WriteFile(readme, []byte("# mine, not committed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := &fake{steps: []stepFn{step(map[string]string{"README.md": "# the agent's\n"}, done("done"))}}
	runWith(t, s, Options{Runner: f})
	first := pendingOf(t, getTask(t, s, tk.ID))
	if !ending.IsLandQuestion(&first) {
		t.Fatalf("question %+v, want the landing question", first)
	}
	before := getTask(t, s, tk.ID)
	for try := 1; try <= 3; try++ {
		if _, err := Respond(s, tk.ID, []task.Answer{{QuestionID: first.ID, Values: []string{ending.LandNow}}}, "alice"); err != nil {
			t.Fatal(err)
		}
		runWith(t, s, Options{Runner: f})
		got := getTask(t, s, tk.ID)
		if got.State != task.AwaitingInput || len(got.Questions) != 1 || pendingOf(t, got).ID != first.ID {
			t.Fatalf("try %d: %s with questions %+v, want %s waiting again", try, got.State, got.Questions, first.ID)
		}
	}
	got := getTask(t, s, tk.ID)
	if n := count(got, task.EventInputRequested); n != 1 {
		t.Errorf("%d input.requested records, want 1", n)
	}
	if n, was := count(got, task.EventParked), count(before, task.EventParked); n != was {
		t.Errorf("%d parked records after the refusals, %d before", n, was)
	}
	// each answer is announced as received; the refusals announce nothing
	want := []string{task.EventInputRequested, task.EventInputReceived, task.EventInputReceived, task.EventInputReceived}
	if names := h.names(tk.ID); !slices.Equal(names, want) {
		t.Errorf("notifications %v, want %v", names, want)
	}
	gitT(t, s.Root, "checkout", "README.md") // the human puts their edit away
	if _, err := Respond(s, tk.ID, []task.Answer{{QuestionID: first.ID, Values: []string{ending.LandNow}}}, "alice"); err != nil {
		t.Fatal(err)
	}
	runWith(t, s, Options{Runner: f})
	if got := getTask(t, s, tk.ID); got.State != task.Closed {
		t.Fatalf("after the edit went: %s", got.State)
	}
	if b, _ := os.ReadFile(readme); !strings.Contains(string(b), "the agent's") {
		t.Fatalf("README.md after landing: %q", b)
	}
	if len(f.requests()) != 1 {
		t.Fatal("the landing answers ran the agent again")
	}
}
