package store

import "github.com/bh-tracker/bh/task"

// arena hands out slices carved from large blocks, so that decoding
// thousands of tasks makes a few allocations instead of tens of thousands.
// Each slice is capped at its length: an append copies it elsewhere.
type arena struct {
	events []task.Event
	strs   []string
}

func carve[T any](block *[]T, n int) []T {
	if n > len(*block) {
		*block = make([]T, max(n, 256)) // arenas are sized up front: this is the rare overflow
	}
	s := (*block)[:n:n]
	*block = (*block)[n:]
	return s
}

func (d *dec) events(n int) []task.Event {
	if d.a == nil {
		return make([]task.Event, n)
	}
	return carve(&d.a.events, n)
}
