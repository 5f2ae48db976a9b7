package worker

import (
	"fmt"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
)

// BenchmarkCheckTimeouts1000 is one timeout scan (what the worker does on
// its tick and at each expiry) over 1,000 tasks, 200 of them waiting on a
// question that is not yet due.
func BenchmarkCheckTimeouts1000(b *testing.B) {
	s := newStore(b)
	later := t0.Add(time.Hour)
	for i := range 1000 {
		tk := addTask(b, s, fmt.Sprintf("Task %d", i))
		if i%5 != 0 {
			continue
		}
		update(b, s, tk.ID, func(tk *task.Task) {
			tk.State = task.AwaitingInput
			tk.Questions = []task.Question{{ID: "q0001", Question: "?", Status: task.QuestionPending, AskedAt: t0,
				ExpiresAt: &later}}
		})
	}
	// Files written this very second are not trusted to the list cache
	// yet; a real store's files are older.
	time.Sleep(1100 * time.Millisecond)
	if _, _, err := s.List(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if err := checkTimeoutsAt(s, t0, nil); err != nil {
			b.Fatal(err)
		}
	}
}
