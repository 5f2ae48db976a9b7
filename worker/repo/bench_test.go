package repo

import (
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"
)

// benchRepo is a committed 5,000-file repository in 100 directories, with
// a user in the middle of some work of their own.
func benchRepo(b *testing.B) *Repo {
	b.Helper()
	r := newRepo(b)
	files := map[string]string{".gitignore": "build/\n"}
	for i := range 5000 {
		files[fmt.Sprintf("pkg%03d/file%04d.go", i/50, i)] = fmt.Sprintf("package pkg\n\n// file %d\n", i)
	}
	// Files older than the index, as in any repository not just written:
	// git rehashes "racily clean" files on every status otherwise.
	old := time.Now().Add(-time.Hour)
	for p, c := range files {
		writeT(b, r, p, c)
		if err := os.Chtimes(r.abs(p), old, old); err != nil {
			b.Fatal(err)
		}
	}
	gitT(b, r.Root, "add", "-A")
	gitT(b, r.Root, "commit", "-q", "-m", "setup")
	writeT(b, r, "pkg000/file0000.go", "package pkg // user edit\n")
	writeT(b, r, "notes.txt", "user notes\n")
	writeT(b, r, "build/out.o", "ignored")
	return r
}

// BenchmarkOverhead5000 is the worker's git overhead per task: baseline,
// the agent writes two files, find its changes, commit them. The steps are
// also reported one by one (ms/baseline, ms/changed, ms/commit).
func BenchmarkOverhead5000(b *testing.B) {
	benchOverhead(b, benchRepo(b))
}

// BenchmarkOverheadHooks5000 is the same with a pre-commit hook (one that
// does nothing), so that git commit makes the commit.
func BenchmarkOverheadHooks5000(b *testing.B) {
	r := benchRepo(b)
	hook := r.abs(".git/hooks/pre-commit")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	benchOverhead(b, r)
}

func benchOverhead(b *testing.B, r *Repo) {
	var steps [3]time.Duration
	n := 0
	cpu0 := cpuTime()
	for b.Loop() {
		n++
		t0 := time.Now()
		base, err := r.Baseline()
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		writeT(b, r, "pkg042/file2100.go", fmt.Sprintf("package pkg\n\n// agent run %d\n", n))
		writeT(b, r, fmt.Sprintf("pkg099/new%d.go", n), "package pkg\n")
		t2 := time.Now()
		changed, err := r.Changed(base)
		if err != nil {
			b.Fatal(err)
		}
		if len(changed) != 2 {
			b.Fatalf("changed %q", changed)
		}
		t3 := time.Now()
		if _, err := r.Commit(changed, "agent work"); err != nil {
			b.Fatal(err)
		}
		steps[0] += t1.Sub(t0)
		steps[1] += t3.Sub(t2)
		steps[2] += time.Since(t3)
	}
	cpu := cpuTime() - cpu0
	for i, name := range []string{"ms/baseline", "ms/changed", "ms/commit"} {
		b.ReportMetric(float64(steps[i].Microseconds())/1000/float64(n), name)
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(n), "cpu-ms/op")
}

// cpuTime is the CPU time used so far by this process and the git
// processes it waited for: a figure other load on the machine disturbs
// much less than wall time.
func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	d := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return d(self.Utime) + d(self.Stime) + d(kids.Utime) + d(kids.Stime)
}

func BenchmarkBaseline5000(b *testing.B) {
	r := benchRepo(b)
	for b.Loop() {
		if _, err := r.Baseline(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkChanged5000(b *testing.B) {
	r := benchRepo(b)
	base, err := r.Baseline()
	if err != nil {
		b.Fatal(err)
	}
	writeT(b, r, "pkg042/file2100.go", "package pkg // agent\n")
	for b.Loop() {
		if _, err := r.Changed(base); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParkUnpark5000 parks two changed files and brings them back.
func BenchmarkParkUnpark5000(b *testing.B) {
	r := benchRepo(b)
	for b.Loop() {
		base := baselineT(b, r)
		writeT(b, r, "pkg042/file2100.go", "package pkg // agent\n")
		writeT(b, r, "pkg099/new.go", "package pkg\n")
		changed := changedT(b, r, base)
		if _, err := r.Park(parkRef, base, changed, "park"); err != nil {
			b.Fatal(err)
		}
		if _, err := r.Unpark(parkRef); err != nil {
			b.Fatal(err)
		}
		if err := r.Rollback(base, changed); err != nil {
			b.Fatal(err)
		}
	}
}
