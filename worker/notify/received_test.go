package notify

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/config"
	"github.com/bh-tracker/bh/task/store"
)

// asking is a store whose task tm-ask1 waits on three questions, with a
// command notifier that appends each event's JSON, one a line, to the
// returned file.
func asking(t *testing.T, events ...string) (*store.Store, string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no web.json of the user's
	root := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	s, _, err := store.Init(root)
	if err != nil {
		t.Fatal(err)
	}
	yaml := `id: tm-ask1
title: Asks
type: code
priority: P1
state: awaiting_input
questions:
  - id: q1
    question: Ship it?
    type: approval
    status: pending
    askedAt: 2026-01-01T10:00:00Z
  - id: q2
    question: Which database?
    type: choice
    options: [{label: SQLite}, {label: Postgres}]
    status: pending
    askedAt: 2026-01-01T10:00:00Z
  - id: q3
    question: Anything else?
    status: pending
    askedAt: 2026-01-01T10:00:00Z
createdAt: 2026-01-01T08:00:00Z
updatedAt: 2026-01-01T10:00:00Z
`
	if err := os.WriteFile(filepath.Join(s.Dir, "tasks", "tm-ask1.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	sent := filepath.Join(t.TempDir(), "sent")
	s.Config.Notify = []config.NotifyConfig{{Events: events,
		Command: `printf '%s\n' "$BH_EVENT_JSON" >> '` + sent + `'`}}
	return s, sent
}

// sentEvents are the events the command notifier wrote.
func sentEvents(t *testing.T, file string) []Event {
	t.Helper()
	b, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []Event
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var e Event
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
	want := []Question{{ID: "q2", Type: task.ChoiceQuestion, Text: "Which database?", Answer: "SQLite: one file is enough"},
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

// input.requested carries every question of the ask, each with the
// command that answers it; the text shapes list them all.
func TestEveryQuestionOfTheAsk(t *testing.T) {
	s, _ := asking(t, task.EventInputRequested)
	tk, err := s.Get("tm-ask1")
	if err != nil {
		t.Fatal(err)
	}
	e := FromTask(task.EventInputRequested, tk, s.Root, config.WebConfig{}, tk.UpdatedAt)
	if len(e.Questions) != 3 {
		t.Fatalf("questions = %+v", e.Questions)
	}
	lines := strings.Join(details(e, true), "\n")
	for _, q := range e.Questions {
		if q.Respond != task.RespondCommand(tk, pendingByID(tk, q.ID), s.Root) || !strings.Contains(q.Respond, "--question") {
			t.Errorf("%s: respond %q", q.ID, q.Respond)
		}
		if !strings.Contains(lines, q.Text) || !strings.Contains(lines, "Answer: "+q.Respond) {
			t.Errorf("the text lacks %s:\n%s", q.ID, lines)
		}
	}
	if !strings.Contains(lines, "Choices: SQLite · Postgres") {
		t.Errorf("the text lacks the choices:\n%s", lines)
	}
}

func pendingByID(t *task.Task, id string) task.Question {
	for _, q := range t.Pending() {
		if q.ID == id {
			return q
		}
	}
	return task.Question{}
}

// What people read names whoever answered by their one name (task.Who),
// never as recorded (web:ann, ntfy).
func TestReceivedNamesWhoAnswered(t *testing.T) {
	for by, want := range map[string]string{"web:ann": "ann (web) answered: SQLite", "ntfy": "you (ntfy) answered: SQLite",
		"human": "you answered: SQLite"} {
		e := Event{Name: task.EventInputReceived, TaskID: "tm-ask1", Title: "Asks", By: by,
			Questions: []Question{{ID: "q2", Text: "Which database?", Answer: "SQLite"}}}
		msg := ntfy("bh", e).(ntfyMessage).Message
		if blocks, _ := json.Marshal(slack(e)); !strings.Contains(msg, want) || !strings.Contains(string(blocks), want) {
			t.Errorf("by %s: want %q in ntfy's\n%s\nand in slack's %s", by, want, msg, blocks)
		}
	}
}

// A comment goes on a line the change's diff shows, of a file it changed;
// anything else is refused saying what the change holds.
func TestOffChange(t *testing.T) {
	lines := map[string][]int{"README.md": {1, 2, 3}, "docs/café.md": {2, 4, 5, 6}}
	for c, want := range map[task.LineComment]string{
		{Path: "README.md", Line: 2}:     "",
		{Path: " docs/café.md", Line: 6}: "",
		{Path: "README.md", Line: 999}:   "line 999 is not in tm-a's change, which shows lines 1-3 of README.md",
		{Path: "docs/café.md", Line: 3}:  "line 3 is not in tm-a's change, which shows lines 2, 4-6 of docs/café.md",
		{Path: "nosuch.md", Line: 1}:     "nosuch.md is not a file of tm-a's change, whose files are README.md, docs/café.md",
	} {
		if got := OffChange(lines, c, "tm-a"); got != want {
			t.Errorf("%+v: %q, want %q", c, got, want)
		}
	}
	if got := OffChange(nil, task.LineComment{Path: "a", Line: 1}, "tm-a"); got != "tm-a has no change to comment on" {
		t.Errorf("no change: %q", got)
	}
}
