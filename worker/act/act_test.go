package act

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
	"github.com/bh-tracker/bh/worker/notify"
	"github.com/bh-tracker/bh/worker/storegit/storetest"
)

// asking is a store whose task tm-ask1 waits on three questions, with a
// command notifier that appends each event's JSON, one a line, to the
// returned file.
func asking(t *testing.T, events ...string) (*store.Store, string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no web.json of the user's
	s := storetest.New(t)
	at := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	pending := func(id, text string, typ string, options ...task.Option) task.Question {
		return task.Question{ID: id, Question: text, Type: typ, Options: options, Status: task.QuestionPending, AskedAt: at}
	}
	if err := s.Put(&task.Task{ID: "tm-ask1", Title: "Asks", Type: "code", Priority: "P1", State: task.AwaitingInput,
		Questions: []task.Question{pending("q1", "Ship it?", task.ApprovalQuestion),
			pending("q2", "Which database?", task.ChoiceQuestion, task.Option{Label: "SQLite"}, task.Option{Label: "Postgres"}),
			pending("q3", "Anything else?", task.FreeformQuestion)},
		CreatedAt: at.Add(-2 * time.Hour), UpdatedAt: at}); err != nil {
		t.Fatal(err)
	}
	sent := filepath.Join(t.TempDir(), "sent")
	s.Config.Notify = []config.NotifyConfig{{Events: events,
		Command: `printf '%s\n' "$BH_EVENT_JSON" >> '` + sent + `'`}}
	return s, sent
}

// sentEvents are the events the command notifier wrote.
func sentEvents(t *testing.T, file string) []notify.Event {
	t.Helper()
	b, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []notify.Event
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var e notify.Event
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		out = append(out, e)
	}
	return out
}

// An answer is announced as it is recorded, once per call, naming who
// answered and what, question by question.
func TestAnswerSendsInputReceived(t *testing.T) {
	s, sent := asking(t, task.EventInputReceived)
	ans := []task.Answer{{QuestionID: "q2", Values: []string{"SQLite"}, Comment: "one file is enough"},
		{QuestionID: "q3", Values: []string{"no"}}}
	if _, err := Answer(s, "tm-ask1", ans, "web:ann", t.Errorf); err != nil {
		t.Fatal(err)
	}
	evs := sentEvents(t, sent)
	if len(evs) != 1 {
		t.Fatalf("sent %d events, want 1: %+v", len(evs), evs)
	}
	e := evs[0]
	if e.Name != task.EventInputReceived || e.By != "web:ann" || e.QuestionID != "q2" || e.Answer != "SQLite: one file is enough" ||
		e.RepoPath != s.Root || e.State != string(task.AwaitingInput) {
		t.Errorf("event = %+v", e)
	}
	want := []notify.Question{{ID: "q2", Type: task.ChoiceQuestion, Text: "Which database?", Answer: "SQLite: one file is enough"},
		{ID: "q3", Type: task.FreeformQuestion, Text: "Anything else?", Answer: "no"}}
	if len(e.Questions) != 2 || e.Questions[0].ID != want[0].ID || e.Questions[0].Answer != want[0].Answer ||
		e.Questions[0].Text != want[0].Text || e.Questions[1].ID != want[1].ID || e.Questions[1].Answer != want[1].Answer ||
		e.Questions[1].Type != want[1].Type {
		t.Errorf("questions = %+v, want %+v", e.Questions, want)
	}
	// The last answer opens the task; a refused one sends nothing.
	if _, err := Answer(s, "tm-ask1", []task.Answer{{QuestionID: "q2", Values: []string{"Postgres"}}}, "human", t.Errorf); err == nil {
		t.Fatal("a second answer to q2 was taken")
	}
	if _, err := Answer(s, "tm-ask1", []task.Answer{{QuestionID: "q1", Values: []string{"yes"}}}, "human", t.Errorf); err != nil {
		t.Fatal(err)
	}
	evs = sentEvents(t, sent)
	if len(evs) != 2 || evs[1].By != "human" || evs[1].Answer != "yes" || evs[1].State != string(task.Open) {
		t.Errorf("events = %+v", evs)
	}
}

// Without a notifier listening to input.received, answering sends nothing
// and needs none.
func TestAnswerWithoutListener(t *testing.T) {
	s, sent := asking(t, task.EventInputRequested)
	if _, err := Answer(s, "tm-ask1", []task.Answer{{QuestionID: "q1", Values: []string{"yes"}}}, "human", t.Errorf); err != nil {
		t.Fatal(err)
	}
	if evs := sentEvents(t, sent); len(evs) != 0 {
		t.Errorf("sent %+v", evs)
	}
}
