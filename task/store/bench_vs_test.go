package store

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/internal/tasktest"
)

// The side-by-side benchmark against dstask (task/store/bench/dstask.sh runs it):
// the same realistic store of n tasks written once for each tool, then
// list, ready and tree of both timed in one interleaved run, by CPU.
//
//	BH_VS_DIR=/tmp/vs BH_VS_N=10000 go test ./task/store -run TestWriteVsStores
//
// writes $BH_VS_DIR/bh (a git repository with .bh/) and $BH_VS_DIR/dstask
// (a dstask repository), for any whole-process timer.
//
//	BH_DSTASK_BIN=/path/to/dstask go test ./task/store -run XXX -bench VsDstask -benchtime 20x
//
// times both side by side and reports the CPU ratios bh/dstask (the
// median of each, from the kernel's accounting of each process).

// dstaskFile is vsTask in dstask's terms: epics are projects (an epic and
// its children share project "e<epic>"), labels are tags, a dependency is
// the other task's UUID, closed is resolved, in progress is active, and an
// answer awaited is paused (dstask has no waiting-on-a-human state).
func dstaskFile(t *task.Task) (status, uuid string, body []byte) {
	epic := t.ID
	if t.Parent != "" {
		epic = t.Parent
	}
	var deps []string
	for _, d := range t.DependsOn {
		deps = append(deps, dstaskUUID(d))
	}
	status = map[task.State]string{task.Open: "pending", task.InProgress: "active", task.AwaitingInput: "paused", task.Closed: "resolved"}[t.State]
	resolved := "0001-01-01T00:00:00Z"
	if t.State == task.Closed {
		resolved = t.UpdatedAt.Format(time.RFC3339)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "summary: %q\nnotes: %q\ntags:\n", t.Title, t.Description)
	for _, l := range t.Labels {
		fmt.Fprintf(&b, "- %s\n", l)
	}
	fmt.Fprintf(&b, "project: e%s\npriority: %s\ndelegatedto: \"\"\nsubtasks: []\ndependencies: [%s]\ncreated: %s\nresolved: %s\ndue: 0001-01-01T00:00:00Z\n",
		strings.TrimPrefix(epic, "tm-"), t.Priority, strings.Join(deps, ", "), t.CreatedAt.Format(time.RFC3339), resolved)
	return status, dstaskUUID(t.ID), b.Bytes()
}

// dstaskUUID is a fixed version-4 UUID for a task ID.
func dstaskUUID(id string) string {
	n, _ := strconv.ParseUint(strings.TrimPrefix(id, "tm-"), 36, 64)
	return fmt.Sprintf("%08x-0000-4000-8000-%012x", n, n)
}

// writeVsStores writes both stores of n tasks under dir.
func writeVsStores(tb testing.TB, dir string, n int) (bhRoot, dsRoot string) {
	tb.Helper()
	bhRoot, dsRoot = filepath.Join(dir, "bh"), filepath.Join(dir, "dstask")
	for _, d := range []string{bhRoot, dsRoot} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			tb.Fatal(err)
		}
		gitInit(tb, d)
	}
	s, _, err := Init(bhRoot)
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		t := tasktest.VsTask(i)
		b, err := task.Render(t, nil)
		if err != nil {
			tb.Fatal(err)
		}
		writeFile(tb, s.Path(t.ID), string(b))
		status, uuid, body := dstaskFile(t)
		os.MkdirAll(filepath.Join(dsRoot, status), 0o755)
		writeFile(tb, filepath.Join(dsRoot, status, uuid+".yml"), string(body))
	}
	return bhRoot, dsRoot
}

func TestWriteVsStores(t *testing.T) {
	dir := os.Getenv("BH_VS_DIR")
	if dir == "" {
		t.Skip("BH_VS_DIR not set: writes the side-by-side stores there")
	}
	n := 10000
	if v := os.Getenv("BH_VS_N"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	writeVsStores(t, dir, n)
}

func BenchmarkVsDstask(b *testing.B) {
	ds := os.Getenv("BH_DSTASK_BIN")
	if ds == "" {
		b.Skip("BH_DSTASK_BIN not set")
	}
	bin := os.Getenv("BH_BENCH_BIN")
	if bin == "" {
		bin = filepath.Join(b.TempDir(), "bh")
		if out, err := exec.Command("go", "build", "-o", bin, "github.com/bh-tracker/bh").CombinedOutput(); err != nil {
			b.Fatalf("bh does not build: %v\n%s", err, out)
		}
	}
	n := 10000
	if v := os.Getenv("BH_VS_N"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	bhRoot, dsRoot := writeVsStores(b, b.TempDir(), n)
	time.Sleep(racySlack + 100*time.Millisecond) // let the files settle, so bh's cache is trusted
	home := b.TempDir()
	run := func(name string, args ...string) time.Duration {
		c := exec.Command(name, args...)
		c.Dir = bhRoot
		c.Env = append(os.Environ(), "HOME="+home, "DSTASK_GIT_REPO="+dsRoot, "NO_COLOR=1")
		var out bytes.Buffer
		c.Stdout, c.Stderr = &out, &out
		if err := c.Run(); err != nil {
			b.Fatalf("%s %v: %v\n%s", name, args, err, out.Bytes())
		}
		return c.ProcessState.UserTime() + c.ProcessState.SystemTime()
	}
	// An edited run rewrites a task file first (as a worker's heartbeat
	// does), so that the list cache no longer holds for that file.
	edit := func() {
		names, err := filepath.Glob(filepath.Join(bhRoot, ".bh", "tasks", "*.yaml"))
		if err != nil || len(names) == 0 {
			b.Fatalf("no task file to edit: %v", err)
		}
		if err := rewrite(names[0]); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range [][2]string{{"list", "show-open"}, {"ready", "next"}, {"tree", "show-projects"}} {
		for _, edited := range []bool{false, true} {
			name := c[0]
			if edited {
				name += "-edited"
			}
			b.Run(name, func(b *testing.B) {
				run(bin, c[0]) // warm-up: bh builds its cache
				run(ds, c[1])
				var bhs, dss []time.Duration
				for b.Loop() {
					if edited {
						edit()
					}
					bhs = append(bhs, run(bin, c[0]))
					dss = append(dss, run(ds, c[1]))
				}
				bm, dm := median(bhs), median(dss)
				b.ReportMetric(float64(bm.Microseconds())/1000, "bh-cpu-ms")
				b.ReportMetric(float64(dm.Microseconds())/1000, "dstask-cpu-ms")
				b.ReportMetric(float64(bm)/float64(dm), "ratio")
			})
		}
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
