package board

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/cmd/undo"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/worker/storegit/storetest"
)

// At 80 columns every hint shows, whole, on two lines at most: with the
// usage limit's resume and a held approval's undo as well.
func TestBoardHintsFit80(t *testing.T) {
	s := storetest.New(t)
	now := time.Now()
	m := newBoardModel(Options{IO: &ui.IOStreams{Out: new(bytes.Buffer), ErrOut: new(bytes.Buffer)}, Store: s,
		Now: func() time.Time { return now }})
	defer m.close()
	m.width, m.height = 80, 24
	m.held = "paused by the five-hour usage limit"
	m.holds.Hold("tm-a", func() {})
	m.heldID = "tm-a"
	v := m.View()
	for _, hint := range m.keys() {
		if !strings.Contains(v, hint) {
			t.Errorf("the hint %q is not shown", hint)
		}
	}
	for _, want := range []string{"r resume", "u undo", "q quit", "tm-a: your approval lands in 10 s"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q", want)
		}
	}
	lines := strings.Split(v, "\n")
	for _, l := range lines {
		if ui.Width(l) > 80 {
			t.Errorf("%d columns: %q", ui.Width(l), l)
		}
	}
	if len(lines) != 24 {
		t.Errorf("%d lines, want 24", len(lines))
	}
}

// After an answer the cursor goes on to the next task waiting on you, in
// the list's order; with none, it stays on the answered task wherever it
// went; a task that leaves the board hands the cursor to the next row.
func TestBoardCursorAfterAnswer(t *testing.T) {
	w1, w2 := &task.Task{ID: "tm-w1"}, &task.Task{ID: "tm-w2"}
	r, o := &task.Task{ID: "tm-r"}, &task.Task{ID: "tm-o"}
	m := boardOf()
	m.holds = undo.New(time.Now, nil)
	m.rows = []boardRow{{secWaiting, w1}, {secWaiting, w2}, {secReview, r}, {secReady, o}}
	m.sel = "tm-w1"
	next := m.waitingAfter("tm-w1")
	m.rows = []boardRow{{secWaiting, w2}, {secReview, r}, {secReady, o}, {secReady, w1}}
	m.answered("tm-w1", next)
	if m.sel != "tm-w2" {
		t.Errorf("after the answer: %s, want the next waiting tm-w2", m.sel)
	}
	m.sel = "tm-w2"
	next = m.waitingAfter("tm-w2")
	m.rows = []boardRow{{secReview, r}, {secReady, o}, {secReady, w1}, {secReady, w2}}
	m.answered("tm-w2", next)
	if m.sel != "tm-w2" {
		t.Errorf("after the last answer: %s, want tm-w2 itself", m.sel)
	}
	old := m.rows
	m.rows = []boardRow{{secReview, r}, {secReady, o}, {secReady, w2}}
	if got := m.successor(old, 2); got != "tm-w2" {
		t.Errorf("tm-w1 left: %s, want the row after it", got)
	}
	if got := m.successor(old[:3], 2); got != "tm-o" {
		t.Errorf("the last row left: %s, want the one before", got)
	}
}

// The comments on lines go with the no to a gate, and with nothing else.
func TestWithNotes(t *testing.T) {
	tk := &task.Task{State: task.AwaitingInput, Questions: []task.Question{
		{ID: "q1", Question: "Which?", Status: task.QuestionPending},
		{ID: "q2", Question: "Approve?", Gate: true, Status: task.QuestionPending}}}
	notes := []task.LineComment{{Path: "a.go", Line: 3, Text: "check it"}}
	ans := []task.Answer{{QuestionID: "q1", Values: []string{"no"}}, {QuestionID: "q2", Values: []string{"yes"}}}
	if withNotes(tk, ans, notes); ans[0].Comments != nil || ans[1].Comments != nil {
		t.Errorf("notes on a yes, or on another question: %+v", ans)
	}
	ans[1].Values = []string{"no"}
	if withNotes(tk, ans, notes); len(ans[1].Comments) != 1 || ans[0].Comments != nil {
		t.Errorf("the gate's no: %+v", ans)
	}
}

// A change left open is another round's once its task moved on (answered,
// or asking again): the board closes it, and enter on a change answers
// the task as it is now, never the one the change was opened on.
func TestBoardChangeFollowsItsTask(t *testing.T) {
	at := time.Now()
	shown := &task.Task{ID: "tm-g", State: task.AwaitingInput, UpdatedAt: at}
	m := boardOf()
	m.rows = []boardRow{{secWaiting, shown}}
	m.text = &boardText{t: shown, lines: []textLine{{text: "+x", class: "add", path: "x", line: 1}}}
	if m.staleChange() {
		t.Error("the change of the round waiting is stale")
	}
	again := *shown
	again.UpdatedAt = at.Add(time.Minute)
	m.rows = []boardRow{{secWaiting, &again}}
	if !m.staleChange() {
		t.Error("the change of the round before is not stale")
	}
	m.rows = []boardRow{{secReady, &again}}
	if !m.staleChange() {
		t.Error("the change of an answered task is not stale")
	}
	m.rows = nil
	if m.textKey("enter"); m.dlg != nil || !m.noteErr || !strings.Contains(m.note, "has left the board") {
		t.Errorf("enter on the change of a task gone: %q", m.note)
	}
}
