package task

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSortQueue sorts enough tasks for the halves sorted at once and
// merged, with ties on priority and creation time, and checks the order
// one comparison at a time.
func TestSortQueue(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	prios := append(slices.Clone(Priorities), "")
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, n := range []int{0, 1, 7, 2047, 2048, 5001} {
		ts := make([]*Task, n)
		ids := r.Perm(n) // unique, in no order
		for i := range ts {
			ts[i] = &Task{ID: fmt.Sprintf("tm-%06d", ids[i]), Priority: prios[r.IntN(len(prios))],
				CreatedAt: base.Add(time.Duration(r.IntN(50)) * time.Second).Add(time.Duration(r.IntN(2)))}
		}
		want := slices.Clone(ts)
		SortQueue(ts)
		if len(ts) != n {
			t.Fatalf("%d tasks became %d", n, len(ts))
		}
		for i := 1; i < len(ts); i++ {
			a, b := ts[i-1], ts[i]
			if ka, kb := [2]int64{int64(a.Priority.Rank()), a.CreatedAt.UnixNano()}, [2]int64{int64(b.Priority.Rank()), b.CreatedAt.UnixNano()}; ka[0] > kb[0] ||
				ka[0] == kb[0] && (ka[1] > kb[1] || ka[1] == kb[1] && a.ID >= b.ID) {
				t.Fatalf("n=%d: %s (%s %v) before %s (%s %v)", n, a.ID, a.Priority, a.CreatedAt, b.ID, b.Priority, b.CreatedAt)
			}
		}
		byID := func(a, b *Task) int { return strings.Compare(a.ID, b.ID) }
		slices.SortFunc(want, byID)
		got := slices.Clone(ts)
		slices.SortFunc(got, byID)
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: the sorted tasks are not the tasks given", n)
		}
	}
}
