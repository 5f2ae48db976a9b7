package storegit

import (
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/storegit/storetest"
)

// BenchmarkKeepCreate is bh add's store work with and without keeping a
// copy under refs/bh/local/store.
func BenchmarkKeepCreate(b *testing.B) {
	for _, keep := range []bool{false, true} {
		name := map[bool]string{false: "plain", true: "kept"}[keep]
		b.Run(name, func(b *testing.B) {
			s := storetest.New(b)
			if keep {
				s.Keep = NewKeeper(s, func(err error) { b.Fatal(err) }).Write
			}
			b.ResetTimer()
			for range b.N {
				if _, err := s.Create(&task.Task{Title: "x"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
