package act

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/ending"
)

// landings records which landing the door asked for.
type landings struct{ asked []string }

func (l *landings) InTheWay(*task.Task) error { l.asked = append(l.asked, "in the way"); return nil }
func (l *landings) Settled(_ context.Context, t *task.Task) error {
	l.asked = append(l.asked, "settled "+t.ID)
	return nil
}
func (l *landings) Kept(_ context.Context, t *task.Task) error {
	l.asked = append(l.asked, "kept "+t.ID)
	return nil
}

// TestLandDecides: land now is the door's decision, whatever face asks:
// a task with no finished work waiting is refused without a landing, and
// a closed task's kept work is landed by the landing handed in.
func TestLandDecides(t *testing.T) {
	s, _ := asking(t)
	l := &landings{}
	err := Land(context.Background(), s, "tm-ask1", "ann", l)
	var nl *ending.NotLandedError
	if !errors.As(err, &nl) || !errors.Is(err, ending.ErrNothingToLand) || nl.State != task.AwaitingInput || len(l.asked) > 0 {
		t.Fatalf("land of a task that asks: %v, landings %q", err, l.asked)
	}
	if _, err := Move(s, "tm-ask1", task.Closed, time.Now(), "ann"); err != nil {
		t.Fatal(err)
	}
	if err := Land(context.Background(), s, "tm-ask1", "ann", l); err != nil || len(l.asked) != 1 || l.asked[0] != "kept tm-ask1" {
		t.Fatalf("land of a closed task: %v, landings %q", err, l.asked)
	}
}
