package cmd

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/task"

	tea "github.com/charmbracelet/bubbletea"
)

// boardOf is a board over tasks in the running section, without a store.
func boardOf(tasks ...*task.Task) *boardModel {
	m := &boardModel{b: base{IO: &IOStreams{Out: new(bytes.Buffer), ErrOut: new(bytes.Buffer)}}, width: 80, height: 24}
	for _, t := range tasks {
		m.rows = append(m.rows, boardRow{secRunning, t})
	}
	m.move(0)
	return m
}

func typed(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// Keys that arrive in one message (typed fast, a held key) each count, in
// order; those after a key that opens a dialog wait for its field.
func TestBoardMultiRuneKeys(t *testing.T) {
	a := &task.Task{ID: "tm-a", Title: "First", State: task.InProgress}
	b := &task.Task{ID: "tm-b", Title: "Second", State: task.InProgress}
	c := &task.Task{ID: "tm-c", Title: "Third job", State: task.InProgress}
	m := boardOf(a, b, c)
	m.Update(typed("jj"))
	if m.sel != "tm-c" {
		t.Fatalf("after jj in one message the selection is %q, want tm-c", m.sel)
	}
	m.Update(typed("kjk"))
	if m.sel != "tm-b" {
		t.Fatalf("after kjk in one message the selection is %q, want tm-b", m.sel)
	}
	m.Update(typed("jsy"))
	if m.dlg == nil || m.dlg.t != c || string(m.dlg.pending) != "y" {
		t.Fatalf("after jsy: dialog %+v", m.dlg)
	}
	f, ok := m.dlg.next().(boardField)
	if !ok {
		t.Fatal("the stop asked nothing")
	}
	// The confirmation names the task it stops, by id and title.
	if !strings.Contains(f.title, "tm-c") || !strings.Contains(f.title, "Third job") {
		t.Errorf("the stop asks %q", f.title)
	}
	m.Update(f) // the field comes: the y typed ahead goes to it
	if len(m.dlg.pending) != 0 {
		t.Errorf("keys still waiting: %q", string(m.dlg.pending))
	}
	m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if res, ok := m.dlg.next().(boardDone); !ok || res.err == nil {
		t.Errorf("after esc: %+v", res)
	}
}

// Titles are cut after a whole word, or at the column when one word is
// longer than the room.
func TestCutWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"Pick a database", 20, "Pick a database"},
		{"Pick a database", 15, "Pick a database"},
		{"Pick a database", 14, "Pick a…"},
		{"Answer 1 question, then go", 18, "Answer 1 question…"},
		{"Answer 1 question, then go", 17, "Answer 1…"},
		{"Supercalifragilistic words", 10, "Supercali…"},
		{"日本語のタイトル です", 9, "日本語の…"},
		{"x", 0, ""},
	} {
		if got := cutWords(c.in, c.n); got != c.want {
			t.Errorf("cutWords(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
		if w := width(cutWords(c.in, c.n)); w > c.n {
			t.Errorf("cutWords(%q, %d) is %d wide", c.in, c.n, w)
		}
	}
}

// Tabs become spaces to the next stop of 4, and wrapping keeps a line's
// indentation: code keeps its shape.
func TestTabsKept(t *testing.T) {
	if got, want := expandTabs("func f() {\n\tif x {\n\t\treturn\ta\n"), "func f() {\n    if x {\n        return  a\n"; got != want {
		t.Errorf("expandTabs = %q, want %q", got, want)
	}
	got := wrap("\tfoo(a,\tb)\n\tone two three four five six", 20)
	if want := "    foo(a,  b)\n    one two three\n    four five six"; got != want {
		t.Errorf("wrap = %q, want %q", got, want)
	}
}
