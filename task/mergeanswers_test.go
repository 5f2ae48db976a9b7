package task

import (
	"strings"
	"testing"
	"time"

	gitbin "github.com/bh-tracker/bh/worker/git" // task tests have a git helper
	"gopkg.in/yaml.v3"
)

// Two clones answer one question; whichever order the merge sees them in,
// the earlier answer stands and the later is kept as input.unused.
func TestMergeTwoAnswersEarlierStands(t *testing.T) {
	asked := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	base := &Task{ID: "tm-q", Title: "Which port", Type: "code", Priority: "P2", State: AwaitingInput,
		CreatedAt: asked, UpdatedAt: asked,
		Questions: []Question{{ID: "q1", Question: "Which port?", Type: FreeformQuestion, Status: QuestionPending, AskedAt: asked}},
		History:   []Event{{At: asked, Kind: EventInputRequested, QuestionID: "q1", Text: "Which port?"}}}
	answered := func(text, by string, at time.Time) *Task {
		c := cloneTask(t, base)
		if err := c.Answer([]Answer{{Values: []string{text}}}, at, by); err != nil {
			t.Fatal(err)
		}
		return c
	}
	early := answered("8080, from a", "ann", asked.Add(time.Hour))
	late := answered("9090, from b", "bob", asked.Add(2*time.Hour))
	// a resumed already: its run must survive the merge
	resumed := cloneTask(t, early)
	resumed.Lease = &Lease{Worker: "w1", Host: "a", Heartbeat: asked.Add(3 * time.Hour), StartedAt: asked.Add(3 * time.Hour)}
	if err := resumed.SetState(InProgress, asked.Add(3*time.Hour), "worker", "claimed"); err != nil {
		t.Fatal(err)
	}
	resumed.Record(asked.Add(3*time.Hour), Event{Kind: EventRunStarted, By: "worker"})

	for _, tc := range []struct {
		name          string
		ours, theirs  *Task
		state         State
		leased, ranOK bool
	}{
		{"earlier is ours", early, late, Open, false, false},
		{"earlier is theirs", late, early, Open, false, false},
		{"earlier resumed, ours", resumed, late, InProgress, true, true},
		{"earlier resumed, theirs", late, resumed, InProgress, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, conflict, err := MergeFiles(yamlOf(t, base), yamlOf(t, tc.ours), yamlOf(t, tc.theirs), gitbin.MergeText)
			if err != nil || conflict {
				t.Fatalf("conflict %v, err %v:\n%s", conflict, err, out)
			}
			var m Task
			if err := yaml.Unmarshal(out, &m); err != nil {
				t.Fatal(err)
			}
			if m.State != tc.state || (m.Lease != nil) != tc.leased {
				t.Errorf("state %s, lease %v; want %s, leased %v", m.State, m.Lease, tc.state, tc.leased)
			}
			if len(m.Questions) != 1 || strings.Join(m.Questions[0].Answer, "") != "8080, from a" {
				t.Errorf("questions %+v, want q1 answered 8080, from a", m.Questions)
			}
			if m.HumanResponse != "8080, from a" {
				t.Errorf("humanResponse %q", m.HumanResponse)
			}
			var got []string
			ran := false
			for _, e := range m.History {
				switch e.Kind {
				case EventInputReceived, EventInputUnused:
					got = append(got, e.Kind+" "+e.By+" "+e.Text+" | "+e.Context)
				case EventRunStarted:
					ran = true
				}
			}
			want := []string{"input.received ann 8080, from a | ",
				"input.unused bob 9090, from b | given in another clone after the answer ann gave at 2026-01-01T11:00:00Z, which was used instead"}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("answers in history:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if ran != tc.ranOK {
				t.Errorf("run.started kept: %v, want %v", ran, tc.ranOK)
			}
			if e, _ := m.LastAnswer("q1"); e.By != "ann" {
				t.Errorf("LastAnswer by %q, want ann", e.By)
			}
		})
	}
}

// Answers to different questions, or the same answer on both sides, are
// not two answers that met.
func TestMergeAnswersNoRace(t *testing.T) {
	at := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	base := &Task{ID: "tm-q", Title: "Two", Type: "code", Priority: "P2", State: AwaitingInput, CreatedAt: at, UpdatedAt: at,
		Questions: []Question{{ID: "q1", Question: "A?", Status: QuestionPending, AskedAt: at},
			{ID: "q2", Question: "B?", Status: QuestionPending, AskedAt: at}}}
	o, th := cloneTask(t, base), cloneTask(t, base)
	if err := o.Answer([]Answer{{QuestionID: "q1", Values: []string{"one"}}}, at.Add(time.Hour), "ann"); err != nil {
		t.Fatal(err)
	}
	if err := th.Answer([]Answer{{QuestionID: "q2", Values: []string{"two"}}}, at.Add(2*time.Hour), "bob"); err != nil {
		t.Fatal(err)
	}
	out, _, err := MergeFiles(yamlOf(t, base), yamlOf(t, o), yamlOf(t, th), gitbin.MergeText)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), EventInputUnused) {
		t.Errorf("an answer to another question was marked unused:\n%s", out)
	}
	// (humanResponse, changed on both sides, is still marked as a conflict)
	for _, q := range []string{"id: q1", "id: q2"} {
		if n := strings.Count(string(out), q); n != 1 {
			t.Errorf("%s %d times:\n%s", q, n, out)
		}
	}
	if n := strings.Count(string(out), "status: answered"); n != 2 {
		t.Errorf("%d questions answered, want 2:\n%s", n, out)
	}
}

func yamlOf(t *testing.T, x *Task) []byte {
	t.Helper()
	b, err := yaml.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func cloneTask(t *testing.T, x *Task) *Task {
	t.Helper()
	var c Task
	if err := yaml.Unmarshal(yamlOf(t, x), &c); err != nil {
		t.Fatal(err)
	}
	return &c
}
