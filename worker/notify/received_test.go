package notify

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// An answer's channel is the word every output uses (task.Channel, as bh
// stats counts it): a bh respond answer, recorded as by "human", goes out
// as channel "cli" in the JSON and BH_ANSWERED_VIA.
func TestReceivedNamesTheChannel(t *testing.T) {
	s, _ := asking(t)
	tk, err := s.Get("tm-ask1")
	if err != nil {
		t.Fatal(err)
	}
	tk.Record(tk.UpdatedAt, task.Event{Kind: task.EventInputReceived, By: "human", QuestionID: "q1", Text: "yes"})
	e := Received(tk, 1, "human", s.Root, config.WebConfig{})
	b, _ := json.Marshal(e)
	if !strings.Contains(string(b), `"by":"human","channel":"cli"`) || !slices.Contains(e.env(), "BH_ANSWERED_VIA=cli") {
		t.Errorf("the event: %s\n%q", b, e.env())
	}
}
