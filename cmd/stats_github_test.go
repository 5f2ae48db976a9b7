package cmd

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/stats"
	"github.com/bh-tracker/bh/task/stats/statstest"
)

// bh stats --json counts an answer given on the task's issue
// ("github:<login>") in the channel github: on a scripted history of two
// answers there, 10 and 30 minutes after they were asked.
func TestStatsGitHubChannel(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	s := newTestStore(t)
	asked := statstest.Now.Add(-3 * time.Hour)
	tk := &task.Task{ID: "bh-gh01", Title: "From an issue", Type: "code", Priority: "P2", State: task.Open,
		Source: "https://github.com/o/r/issues/7", CreatedAt: asked.Add(-time.Hour)}
	tk.Record(tk.CreatedAt, task.Event{Kind: task.EventCreated, To: task.Open})
	for i, wait := range []time.Duration{10 * time.Minute, 30 * time.Minute} {
		q := []string{"q1", "q2"}[i]
		at := asked.Add(time.Duration(i) * time.Hour)
		tk.Record(at, task.Event{Kind: task.EventState, From: task.Open, To: task.InProgress, By: "w1"})
		tk.Record(at, task.Event{Kind: task.EventInputRequested, QuestionID: q})
		tk.Record(at, task.Event{Kind: task.EventState, From: task.InProgress, To: task.AwaitingInput, By: "w1"})
		tk.Record(at.Add(wait), task.Event{Kind: task.EventInputReceived, QuestionID: q, By: "github:dev"})
		tk.Record(at.Add(wait), task.Event{Kind: task.EventState, From: task.AwaitingInput, To: task.Open, By: "github:dev"})
	}
	if err := s.Put(tk); err != nil {
		t.Fatal(err)
	}
	gitE2E(t, s.Root, "add", "-A")
	gitE2E(t, s.Root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "answered on the issue")
	var f stats.Figures
	if err := json.Unmarshal([]byte(bhAt(t, s.Root, "stats", "--json")), &f); err != nil {
		t.Fatal(err)
	}
	gh, ok := f.HumanLatency.ByChannel["github"]
	if !ok || gh.Count != 2 || gh.P50 != 600 || gh.P90 != 1800 || len(f.HumanLatency.ByChannel) != 1 {
		t.Fatalf("human latency by channel: %+v, want github's 2 answers, p50 600 s, p90 1800 s", f.HumanLatency.ByChannel)
	}
}
