package undo

import (
	"testing"
	"time"
)

// clock runs the windows' ends when the test says.
type clock struct{ due []func() }

func (c *clock) after(_ time.Duration, f func()) func() bool {
	i := len(c.due)
	c.due = append(c.due, f)
	return func() bool { was := c.due[i] != nil; c.due[i] = nil; return was }
}

func (c *clock) elapse() {
	due := c.due
	c.due = make([]func(), len(due))
	for _, f := range due {
		if f != nil {
			f()
		}
	}
}

// A held answer is recorded once its window ends, unless dropped first
// (then never); one held again replaces the first; Flush records what
// is held at once, and only once.
func TestHolds(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	c := &clock{}
	hs := New(func() time.Time { return now }, c.after)
	got := map[string]int{}
	hold := func(key string) { hs.Hold(key, func() { got[key]++ }) }

	hold("a")
	if u := hs.Until("a"); !u.Equal(now.Add(Window)) {
		t.Fatalf("held until %s", u)
	}
	if !hs.Drop("a") || hs.Drop("a") || !hs.Until("a").IsZero() {
		t.Fatal("a drop takes it back once")
	}
	hold("b")
	hold("b") // replaced: recorded once
	c.elapse()
	if got["a"] != 0 || got["b"] != 1 || hs.Drop("b") {
		t.Fatalf("after the window: %v", got)
	}
	hold("c")
	hs.Flush()
	c.elapse()
	if got["c"] != 1 || !hs.Until("c").IsZero() {
		t.Fatalf("flushed: %v", got)
	}
}
