package store

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"os"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/internal/tasktest"
)

// benchStore is a generated store of n tasks whose files have settled.
func benchStore(b *testing.B, n int) *Store {
	b.Helper()
	if n >= 100000 && testing.Short() {
		b.Skip("100k tasks: skipped in -short mode")
	}
	s := newStore(b)
	writeStore(b, s, n)
	settle()
	return s
}

func benchList(b *testing.B, n int) {
	s := benchStore(b, n)
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			os.Remove(s.cachePath())
			if _, bad, err := s.List(); err != nil || len(bad) > 0 {
				b.Fatal(err, bad)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		s.List() // builds the cache, if the cold runs did not
		if _, _, r, _ := s.list(false); r.parsed != 0 {
			b.Fatalf("cache is not warm: %+v", r)
		}
		for b.Loop() {
			if tasks, _, _ := s.List(); len(tasks) != n {
				b.Fatalf("%d tasks", len(tasks))
			}
		}
	})
	b.Run("warm-brief", func(b *testing.B) {
		for b.Loop() {
			if tasks, _, _ := s.ListBrief(); len(tasks) != n {
				b.Fatalf("%d tasks", len(tasks))
			}
		}
	})
	// One file changed since the cache was written: the usual case while
	// a worker runs.
	b.Run("one-changed", func(b *testing.B) {
		p := s.Path(tasktest.GenID(n / 2))
		for b.Loop() {
			b.StopTimer()
			body := readFile(b, p)
			os.WriteFile(p, body, 0o644)
			b.StartTimer()
			s.List()
		}
	})
}

func BenchmarkList1k(b *testing.B)   { benchList(b, 1000) }
func BenchmarkList10k(b *testing.B)  { benchList(b, 10000) }
func BenchmarkList100k(b *testing.B) { benchList(b, 100000) }

func BenchmarkGet(b *testing.B) {
	s := benchStore(b, 100)
	for b.Loop() {
		if _, err := s.Get(tasktest.GenID(1)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCreate10k is bh add's store work at 10k tasks: a folder read,
// a lock, an fsynced write and a rename.
func BenchmarkCreate10k(b *testing.B) {
	s := benchStore(b, 10000)
	for b.Loop() {
		if _, err := s.Create(&task.Task{Title: "new"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCodec10k compares ways to keep 10k decoded tasks: the cache's
// own format, gob, JSON, and parsing the YAML files again.
func BenchmarkCodec10k(b *testing.B) {
	tasks := make([]task.Task, 10000)
	var yamls [][]byte
	var bin enc
	for i := range tasks {
		tasks[i] = *tasktest.GenTask(i, len(tasks))
		encodeTask(&bin, &tasks[i])
		y, _ := task.Render(&tasks[i], nil)
		yamls = append(yamls, y)
	}
	var g, j bytes.Buffer
	gob.NewEncoder(&g).Encode(tasks)
	json.NewEncoder(&j).Encode(tasks)
	b.Run("binary", func(b *testing.B) {
		b.ReportMetric(float64(len(bin.b)), "bytes")
		s := string(bin.b)
		for b.Loop() {
			out := make([]task.Task, len(tasks))
			d := &dec{s: s}
			for i := range out {
				decodeTask(d, &out[i], false)
				d.bad = false // records are back to back here
			}
		}
	})
	b.Run("gob", func(b *testing.B) {
		b.ReportMetric(float64(g.Len()), "bytes")
		for b.Loop() {
			var out []task.Task
			if err := gob.NewDecoder(bytes.NewReader(g.Bytes())).Decode(&out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportMetric(float64(j.Len()), "bytes")
		for b.Loop() {
			var out []task.Task
			if err := json.Unmarshal(j.Bytes(), &out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("yaml", func(b *testing.B) {
		for b.Loop() {
			for _, y := range yamls {
				if _, err := task.Decode("x", y, ""); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
