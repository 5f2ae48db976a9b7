package repo

import (
	"fmt"
	"testing"
	"time"
)

func BenchmarkTimingSteps(b *testing.B) {
	r := benchRepo(b)
	var tb, tc, tm time.Duration
	n := 0
	for b.Loop() {
		n++
		t0 := time.Now()
		base, _ := r.Baseline()
		t1 := time.Now()
		writeT(b, r, "pkg042/file2100.go", fmt.Sprintf("package pkg\n\n// agent run %d\n", n))
		writeT(b, r, fmt.Sprintf("pkg099/new%d.go", n), "package pkg\n")
		t2 := time.Now()
		changed, _ := r.Changed(base)
		t3 := time.Now()
		if _, err := r.Commit(changed, "agent work"); err != nil {
			b.Fatal(err)
		}
		t4 := time.Now()
		tb += t1.Sub(t0); tc += t3.Sub(t2); tm += t4.Sub(t3)
	}
	b.Logf("n=%d baseline %v changed %v commit %v", n, tb/time.Duration(n), tc/time.Duration(n), tm/time.Duration(n))
}
