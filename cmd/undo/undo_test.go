package undo

import (
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/storegit/storetest"
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

// A gate approved unopened, and a gate rejected with no reason nor
// comment on a line, are asked about once; confirmed, they go on; a no
// with a reason or a comment is recorded at once.
func TestDecideAsks(t *testing.T) {
	s := storetest.New(t)
	tk := storetest.Add(t, s, "Write the report")
	tk.State, tk.Gate = task.AwaitingInput, "approval"
	tk.Questions = []task.Question{{ID: "q1", Question: "Approve?", Gate: true, Status: task.QuestionPending}}
	if err := s.Put(tk); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	no := func(comment string, cs ...task.LineComment) []task.Answer {
		return []task.Answer{{QuestionID: "q1", Values: []string{"no"}, Comment: comment, Comments: cs}}
	}
	yes := []task.Answer{{QuestionID: "q1", Values: []string{"yes"}}}
	for _, c := range []struct {
		what                string
		ans                 []task.Answer
		reviewed, confirmed bool
		want                Step
	}{
		{"yes unopened", yes, false, false, AskFirst},
		{"yes unopened, confirmed", yes, false, true, HoldBack},
		{"yes opened", yes, true, false, HoldBack},
		{"a bare no", no("  "), true, false, AskWhy},
		{"a bare no, confirmed", no(""), false, true, Record},
		{"a no with a reason", no("rename it"), false, false, Record},
		{"a no with a comment on a line", no("", task.LineComment{Path: "a", Line: 1, Text: "x"}), false, false, Record},
	} {
		if got := Decide(s, tk.ID, c.ans, now, "web", c.reviewed, c.confirmed); got != c.want {
			t.Errorf("%s: %v, want %v", c.what, got, c.want)
		}
	}
}
