package store

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task/internal/tasktest"
)

// lastRelease is the bh that BenchmarkVsRelease holds this one to: the
// commit before issues 27-32, whose speed issue 44 asked back. Move it on
// when a release is cut; BH_RELEASE_REV names another for one run.
const lastRelease = "988671c"

// BenchmarkVsRelease times this bh against the last release, whole
// processes by CPU (user + system, git's children included), each pair in
// turn, on two clones of one realistic store (tasktest.VsTask: 10 %
// epics, 20 % with a dependency, 30 % closed with a run's history, 5 %
// waiting on an answer), and reports the median of the pairs' ratios:
//
//	go test ./task/store -run XXX -bench VsRelease -benchtime 15x
//
// BH_VS_N sets the store's size (10,000); BH_RELEASE_BIN is a release
// built beforehand, else it is built from a worktree of lastRelease. It is
// a report, not a test: .ci/run prints it, and nothing fails on a ratio.
func BenchmarkVsRelease(b *testing.B) {
	root, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		b.Skipf("not in bh's repository: %v", err)
	}
	dir := b.TempDir()
	head := buildBh(b, strings.TrimSpace(string(root)), "", filepath.Join(dir, "bh-head"))
	old := os.Getenv("BH_RELEASE_BIN")
	if old == "" {
		old = buildBh(b, strings.TrimSpace(string(root)), cmp.Or(os.Getenv("BH_RELEASE_REV"), lastRelease), filepath.Join(dir, "bh-release"))
	}
	n := 10000
	if v := os.Getenv("BH_VS_N"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	src := releaseStore(b, filepath.Join(dir, "store"), n)
	home := b.TempDir()
	repos := map[string]string{head: clone(b, src, filepath.Join(dir, "head")), old: clone(b, src, filepath.Join(dir, "release"))}
	run := func(bin string, args ...string) time.Duration {
		c := exec.Command(bin, args...)
		c.Dir = repos[bin]
		c.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home+"/config", "XDG_STATE_HOME="+home+"/state", "NO_COLOR=1")
		var out bytes.Buffer
		c.Stdout, c.Stderr = &out, &out
		if err := c.Run(); err != nil {
			b.Fatalf("%s %v: %v\n%s", bin, args, err, out.Bytes())
		}
		return c.ProcessState.UserTime() + c.ProcessState.SystemTime()
	}
	for _, bin := range []string{head, old} {
		run(bin, "list") // each builds its cache
	}
	// Let the files settle, so that both binaries' caches trust them: the
	// product's racy slack is 2 s (stamp.go), which tests shorten.
	time.Sleep(2*time.Second + 100*time.Millisecond)
	edit := func(bin string) {
		if err := rewrite(filepath.Join(repos[bin], ".bh", "tasks", tasktest.VsTask(n/2).ID+".yaml")); err != nil {
			b.Fatal(err)
		}
	}
	cold := func(bin string) {
		os.RemoveAll(repos[bin])
		clone(b, src, repos[bin])
	}
	show := tasktest.VsTask(n / 3).ID
	// bh add keeps a copy of each new file and folds the copies into git
	// objects once 64 have gathered (worker/git/keep_pending.go): a sample
	// of add is 64 of them, so that it carries its share of one fold.
	cases := []struct {
		name  string
		args  []string
		setup func(bin string)
		times int // runs a sample sums
	}{
		{"list", []string{"list"}, nil, 1},
		{"list-edited", []string{"list"}, edit, 1},
		{"awaiting-edited", []string{"list", "--awaiting"}, edit, 1},
		{"ready", []string{"ready"}, nil, 1},
		{"show", []string{"show", show}, nil, 1},
		{"add", []string{"add", "a task of the benchmark's"}, nil, 64},
		{"list-cold", []string{"list"}, cold, 1},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var ratios, heads, olds []time.Duration
			i := 0
			for b.Loop() {
				pair := [2]string{head, old}
				if i%2 == 1 {
					pair = [2]string{old, head}
				}
				var got [2]time.Duration
				for j, bin := range pair {
					if c.setup != nil {
						c.setup(bin)
					}
					for range c.times {
						got[j] += run(bin, c.args...)
					}
				}
				if i%2 == 1 {
					got[0], got[1] = got[1], got[0]
				}
				heads, olds = append(heads, got[0]), append(olds, got[1])
				ratios = append(ratios, time.Duration(float64(got[0])/float64(got[1])*1e6))
				i++
			}
			b.ReportMetric(float64(median(heads).Microseconds())/1000/float64(c.times), "head-cpu-ms")
			b.ReportMetric(float64(median(olds).Microseconds())/1000/float64(c.times), "release-cpu-ms")
			b.ReportMetric(float64(median(ratios))/1e6, "ratio")
		})
	}
}

// buildBh builds bh at rev (the work tree as it is when rev is "") into out.
func buildBh(b *testing.B, root, rev, out string) string {
	b.Helper()
	src := root
	if rev != "" {
		src = filepath.Join(b.TempDir(), "src")
		if o, err := exec.Command("git", "-C", root, "worktree", "add", "-q", "--detach", src, rev).CombinedOutput(); err != nil {
			b.Skipf("no worktree of %s to build the release from: %v\n%s", rev, err, o)
		}
		defer exec.Command("git", "-C", root, "worktree", "remove", "--force", src).Run()
	}
	c := exec.Command("go", "build", "-o", out, ".")
	c.Dir = src
	if o, err := c.CombinedOutput(); err != nil {
		b.Fatalf("build bh %s: %v\n%s", cmp.Or(rev, "HEAD"), err, o)
	}
	return out
}

// releaseStore is the side-by-side store of n tasks (writeVsStores),
// committed, as a team's repository holds it.
func releaseStore(b *testing.B, dir string, n int) string {
	b.Helper()
	root, _ := writeVsStores(b, dir, n)
	git(b, root, "add", "-A")
	git(b, root, "commit", "-q", "-m", "tasks")
	return root
}

func clone(b *testing.B, src, dst string) string {
	b.Helper()
	if o, err := exec.Command("git", "clone", "-q", src, dst).CombinedOutput(); err != nil {
		b.Fatal(fmt.Errorf("git clone: %w\n%s", err, o))
	}
	return dst
}
