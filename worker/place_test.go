package worker

import (
	"context"
	"testing"
	"time"

	"github.com/bh-tracker/bh/agent"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/claims"
)

// placeFunc is a Place that runs f.
type placeFunc func(t *task.Task) error

func (f placeFunc) Run(_ context.Context, t *task.Task, _ *claims.Remote) error { return f(t) }

// TestPlaceRunsClaimedTasks: with a Place, the loop claims as always and
// hands each task to it instead of running the agent here; an outage the
// Place meets (an empty warm pool) pauses new claims as an agent's does.
func TestPlaceRunsClaimedTasks(t *testing.T) {
	s := newStore(t)
	tk := addTask(t, s, "Run me elsewhere")
	var placed []string
	evs := runWith(t, s, Options{Runner: &fake{}, Backoff: time.Millisecond, Place: placeFunc(func(t *task.Task) error {
		placed = append(placed, t.ID)
		return &agent.RunError{Reason: "no pod bound", Outage: agent.OutageOverloaded}
	})})
	if len(placed) != 1 || placed[0] != tk.ID {
		t.Fatalf("placed %v", placed)
	}
	paused := false
	for _, e := range evs {
		paused = paused || e.Kind == Paused
		if e.Kind == Started {
			t.Fatalf("the agent ran here: %+v", e)
		}
	}
	if !paused {
		t.Fatalf("no pause after the place's outage: %+v", evs)
	}
}
