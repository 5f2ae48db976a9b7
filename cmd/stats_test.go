package cmd

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/stats"
	"github.com/bh-tracker/bh/task/stats/statstest"
)

// statsRepo is a git repository whose committed tasks hold the scripted
// history (statstest.Tasks).
func statsRepo(t *testing.T) string { return statsRepoOf(t, statstest.Tasks()) }

// statsRepoOf is a git repository whose committed tasks are tasks.
func statsRepoOf(t *testing.T, tasks []*task.Task) string {
	t.Helper()
	s := newTestStore(t)
	for _, tk := range tasks {
		if err := s.Put(tk); err != nil {
			t.Fatal(err)
		}
	}
	gitE2E(t, s.Root, "add", "-A")
	gitE2E(t, s.Root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "the scripted history")
	return s.Root
}

// bhAt runs bh in dir at statstest.Now.
func bhAt(t *testing.T, dir string, args ...string) string {
	t.Helper()
	f := newFactory()
	io, _, out, errOut := testIO()
	f.IO, f.WorkDir, f.Now = io, func() (string, error) { return dir, nil }, func() time.Time { return statstest.Now }
	if code := run(f, args); code != 0 {
		t.Fatalf("bh %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out.String()
}

func sameJSON(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("%v:\n%s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// bh stats --json on a scripted history, committed in a real repository,
// gives exactly the figures worked out by hand; --all gives them for each
// registered repository, named.
func TestStatsScripted(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := statsRepo(t)
	sameJSON(t, bhAt(t, dir, "stats", "--json"), statstest.Want)
	all := strings.Replace(statstest.Want, "{", `{"repo": "`+filepath.Base(dir)+`", "repoPath": "`+dir+`",`, 1)
	sameJSON(t, bhAt(t, t.TempDir(), "stats", "--all", "--json"), "["+all+"]")

	text := bhAt(t, dir, "stats")
	for _, want := range []string{"since 2025-12-31 09:00 UTC (7d)", "landed  ", "human latency (p50, p90) ", "5m, 30m (5)",
		"  by board", "2m, 2m (1)", "blocked share", "20%", "$2.00"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	// A day's window ends before anything happened.
	var day stats.Figures
	if err := json.Unmarshal([]byte(bhAt(t, dir, "stats", "--json", "--since", "1d")), &day); err != nil ||
		day.Landed != 0 || day.LimitPauses != 0 || day.HumanLatency.Count != 0 {
		t.Errorf("the last day's figures: %+v, %v", day, err)
	}
}

// bh stats --json on a scripted history of planning: the questions asked
// in planning runs are counted, with their share, and the share asked in
// the first 10 % of the tasks that planned and of the others.
func TestStatsPlanned(t *testing.T) {
	var f struct {
		AskedWhen json.RawMessage `json:"askedWhen"`
	}
	if err := json.Unmarshal([]byte(bhAt(t, statsRepoOf(t, statstest.Planned()), "stats", "--json")), &f); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, string(f.AskedWhen), statstest.WantPlanned)
	if text := bhAt(t, statsRepoOf(t, statstest.Planned()), "stats"); !strings.Contains(text, "asked in a planning run") ||
		!strings.Contains(text, "60% (5)") {
		t.Errorf("bh stats does not show the planning share:\n%s", text)
	}
}
