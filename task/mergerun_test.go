package task

import (
	"strings"
	"testing"
	"time"

	gitbin "github.com/bh-tracker/bh/worker/git" // task tests have a git helper

	"gopkg.in/yaml.v3"
)

// Two machines' workers each ran the task in one round (a recovery and a
// claim, say), each with its own session: the run that acted last has the
// run's fields, whichever side the merge sees it on, and both runs stay
// in the history. A human's field changed on both sides stays a conflict.
func TestMergeTwoRunsLastStands(t *testing.T) {
	at := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	base := &Task{ID: "tm-r", Title: "Run it", Type: "code", Priority: "P2", State: InProgress,
		CreatedAt: at, UpdatedAt: at, Lease: &Lease{Worker: "w", PID: 1, Host: "a", Heartbeat: at, StartedAt: at},
		History: []Event{{At: at, Kind: EventState, From: Open, To: InProgress, By: "worker", Text: "claimed"}}}
	ran := func(session, host string, when time.Time, state State) *Task {
		c := cloneTask(t, base)
		c.SessionID, c.Summary = session, "run "+session
		c.Lease = &Lease{Worker: "w", PID: 2, Host: host, Heartbeat: when, StartedAt: when}
		c.Record(when, Event{Kind: EventRunStarted, By: "worker", Session: session})
		if state != InProgress {
			c.Lease = nil
			if err := c.SetState(state, when, "worker", "ran"); err != nil {
				t.Fatal(err)
			}
		}
		return c
	}
	early := ran("s-early", "a", at.Add(time.Minute), AwaitingInput)
	late := ran("s-late", "b", at.Add(2*time.Minute), InProgress)
	parkedLast := ran("s-late", "b", at.Add(2*time.Minute), AwaitingInput)
	runningFirst := ran("s-early", "a", at.Add(time.Minute), InProgress)
	for _, sides := range [][2]*Task{{early, late}, {late, early}, {runningFirst, parkedLast}, {parkedLast, runningFirst}} {
		want, leased := sides[0], sides[0].Lease != nil
		if sides[1].SessionID == "s-late" {
			want, leased = sides[1], sides[1].Lease != nil
		}
		out, conflict, err := MergeFiles(yamlOf(t, base), yamlOf(t, sides[0]), yamlOf(t, sides[1]), gitbin.MergeText)
		if err != nil || conflict {
			t.Fatalf("merge: conflict %v, %v\n%s", conflict, err, out)
		}
		var m Task
		if err := yaml.Unmarshal(out, &m); err != nil {
			t.Fatal(err)
		}
		if m.SessionID != "s-late" || m.State != want.State || (m.Lease != nil) != leased || m.Summary != "run s-late" {
			t.Fatalf("merged run: session %s, state %s, lease %+v, summary %q", m.SessionID, m.State, m.Lease, m.Summary)
		}
		if n := strings.Count(string(out), "kind: run.started"); n != 2 {
			t.Fatalf("%d runs in the merged history, want both", n)
		}
	}

	// A human's field changed on both sides as well: that one is marked.
	o, th := cloneTask(t, early), cloneTask(t, late)
	o.Title, th.Title = "Run it now", "Run it later"
	out, conflict, err := MergeFiles(yamlOf(t, base), yamlOf(t, o), yamlOf(t, th), gitbin.MergeText)
	if err != nil || !conflict {
		t.Fatalf("human clash: conflict %v, %v", conflict, err)
	}
	marked := string(out[strings.Index(string(out), "<<<<<<<"):strings.Index(string(out), ">>>>>>>")])
	if !strings.Contains(marked, "title: Run it now") || strings.Contains(marked, "sessionId") {
		t.Fatalf("the markers hold:\n%s", marked)
	}
}
