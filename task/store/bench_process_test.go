package store

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task/internal/tasktest"
)

// BenchmarkProcess times whole bh processes, start to exit, as a user or
// an agent runs them, on generated stores of 1k, 10k and 100k tasks with a
// warm cache. Run it with:
//
//	go test ./task/ -run XXX -bench Process -benchtime 20x
//
// BH_BENCH_BIN=/path/to/bh times that binary instead of building one.
// Sub-benchmarks are named size/command, e.g. BenchmarkProcess/10k/list;
// list, ready and tree list with a warm cache (nothing changed since the
// last run), list-edited lists after a task file was rewritten (the list
// cache holds but for that file), and list-cold lists with no cache, as
// after a clone. Besides ns/op (the
// mean) each reports the fastest run and the median in ms, and bh's peak
// resident memory (on Linux never below this test binary's own, which the
// child holds until its exec). A command bh does not have (yet) is skipped, not failed.
func BenchmarkProcess(b *testing.B) {
	bin := os.Getenv("BH_BENCH_BIN") // a bh built earlier, while the tree is mid-edit
	if bin == "" {
		bin = filepath.Join(b.TempDir(), "bh")
		if out, err := exec.Command("go", "build", "-o", bin, "github.com/bh-tracker/bh").CombinedOutput(); err != nil {
			b.Skipf("bh does not build: %v\n%s", err, out)
		}
	}
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			if n >= 100000 && testing.Short() {
				b.Skip("100k tasks: skipped in -short mode")
			}
			s := newStore(b)
			writeStore(b, s, n)
			warmProcess(b, bin, s)
			// The store alone, without bh's start-up or output: this test
			// binary listing it in a process of its own; "start" is the
			// same process doing nothing, to subtract.
			for _, mode := range []string{"start", "stat", "list", "brief"} {
				b.Run("store-"+mode, func(b *testing.B) {
					timeRuns(b, func() error {
						c := exec.Command(os.Args[0], "-test.run=^$")
						c.Env = append(os.Environ(), childEnv+"="+mode, "BH_TEST_ROOT="+s.Root)
						out, err := c.Output()
						if err == nil && mode != "start" && string(out) != fmt.Sprintln(n) {
							err = fmt.Errorf("listed %q tasks, want %d", out, n)
						}
						return err
					})
				})
			}
			for _, c := range []struct {
				name string
				args []string
			}{
				{"list", []string{"list"}},
				{"list-awaiting", []string{"list", "--awaiting"}},
				{"list-json", []string{"list", "--json"}},
				{"tree", []string{"tree"}},
				{"ready", []string{"ready"}},
				{"show", []string{"show", tasktest.GenID(1)}},
				{"list-edited", []string{"list"}}, // a task file rewritten before each run
				{"list-cold", []string{"list"}},   // the caches removed before each run
				{"add", []string{"add", "x"}},     // last: it grows the store
			} {
				b.Run(c.name, func(b *testing.B) {
					var out bytes.Buffer
					if err := runBH(bin, s.Root, &out, c.args...); err != nil {
						b.Skipf("bh %v: %v", c.args, err)
					}
					if out.Len() == 0 {
						b.Fatalf("bh %v printed nothing", c.args)
					}
					var peak int64
					timeRuns(b, func() error {
						out.Reset()
						switch c.name {
						case "list-cold":
							os.Remove(s.cachePath())
						case "list-edited": // as a worker's heartbeat does
							if err := rewrite(s.Path(tasktest.GenID(2))); err != nil {
								return err
							}
						}
						rss, err := runBHRSS(bin, s.Root, &out, c.args...)
						peak = max(peak, rss)
						return err
					})
					b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
				})
			}
		})
	}
}

// timeRuns runs run b.N times, reporting besides the mean the fastest run
// and the median in ms: other work on the machine only ever adds time, so
// the fastest run is the best estimate of the command's own cost.
func timeRuns(b *testing.B, run func() error) {
	var times []time.Duration
	for b.Loop() {
		t0 := time.Now()
		if err := run(); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t0))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[0].Microseconds())/1000, "min-ms")
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
}

// warmProcess lets the files settle as the real bh sees it (after 2 s,
// not the tests' 100 ms), has bh build its cache, and checks that a list
// now reads no task file and not even the folder.
func warmProcess(b *testing.B, bin string, s *Store) {
	b.Helper()
	time.Sleep(2*time.Second + 100*time.Millisecond)
	if err := runBH(bin, s.Root, &bytes.Buffer{}, "list"); err != nil {
		b.Logf("bh list: %v; building the cache in process", err)
		s.List()
	}
	if _, _, r, err := s.list(false); err != nil || r.parsed != 0 || r.saved {
		b.Fatalf("cache is not warm: %+v %v", r, err)
	}
}

func runBH(bin, dir string, out *bytes.Buffer, args ...string) error {
	_, err := runBHRSS(bin, dir, out, args...)
	return err
}

// runBHRSS is runBH that also tells the process's peak resident memory,
// in bytes (0 where the system does not say).
func runBHRSS(bin, dir string, out *bytes.Buffer, args ...string) (int64, error) {
	c := exec.Command(bin, args...)
	c.Dir = dir
	c.Stdout = out
	var stderr bytes.Buffer
	c.Stderr = &stderr
	if err := c.Run(); err != nil {
		return 0, fmt.Errorf("%w: %s", err, stderr.Bytes())
	}
	return peakRSS(c.ProcessState), nil
}

// rewrite writes a file's own bytes back, as a worker's heartbeat writes
// a task file: a new stamp, the same task.
func rewrite(path string) error {
	b, err := os.ReadFile(path)
	if err == nil {
		err = os.WriteFile(path, b, 0o644)
	}
	if err != nil {
		return fmt.Errorf("rewrite %s: %w", path, err)
	}
	return nil
}
