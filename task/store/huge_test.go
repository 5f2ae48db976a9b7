package store

import (
	"testing"
	"unsafe"

	"github.com/bh-tracker/bh/task"
)

// TestBigSlice: a listing's pool is n zeroed tasks, starting within a task
// of a huge page's boundary when it is big enough to span one.
func TestBigSlice(t *testing.T) {
	for _, n := range []int{0, 1, 100, 10000} {
		s := bigSlice[task.Task](n)
		if len(s) != n || cap(s) != n {
			t.Fatalf("bigSlice(%d): len %d cap %d", n, len(s), cap(s))
		}
		for i := range s {
			if s[i].ID != "" || s[i].History != nil {
				t.Fatalf("bigSlice(%d)[%d] is not zero", n, i)
			}
			s[i].ID = "tm-x" // all of it is writable
		}
		big := uintptr(n)*unsafe.Sizeof(task.Task{}) >= hugePage/2
		size := unsafe.Sizeof(task.Task{})
		if aligned := n > 0 && uintptr(unsafe.Pointer(&s[0]))%hugePage < size; hugePages && big && !aligned {
			t.Errorf("bigSlice(%d) does not start on a huge page", n)
		}
	}
}
