package store

import "unsafe"

const hugePage = 2 << 20

// bigSlice is make([]T, n) for the slices of megabytes that a listing
// fills at once (its 10k tasks, 6.9 MB). Where page faults are dear, as in
// this project's VMs, it places the slice on whole 2 MB pages and asks the
// kernel for huge pages: a few faults instead of thousands. Issue 29 took
// it out as buying nothing measurable; issue 44 measured it back: bh list
// after an edit at 10k tasks, 8 % less CPU (cmp.py, 31 interleaved pairs),
// its page faults' samples 4133 → 2606 of 18.9k (perf record, 40 runs).
// The padding is never written: it costs address space, and counts
// towards the heap size that paces the garbage collector.
func bigSlice[T any](n int) []T {
	size := unsafe.Sizeof(*new(T))
	if !hugePages || uintptr(n)*size < hugePage/2 {
		return make([]T, n)
	}
	pad := int((hugePage + size - 1) / size)
	s := make([]T, n+2*pad)
	p := unsafe.Pointer(unsafe.SliceData(s))
	base := uintptr(p)
	start := (base+hugePage-1)&^(hugePage-1) - base // offsets from p
	k := int((start + size - 1) / size)             // the first element on the boundary or after
	end := (base+uintptr(k+n)*size+hugePage-1)&^(hugePage-1) - base
	adviseHuge(unsafe.Add(p, start), end-start)
	return s[k : k+n : k+n]
}
