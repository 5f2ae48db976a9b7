package board

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"

	tea "github.com/charmbracelet/bubbletea"
)

// boardOf is a board over tasks in the running section, without a store.
func boardOf(tasks ...*task.Task) *boardModel {
	m := &boardModel{b: Options{IO: &ui.IOStreams{Out: new(bytes.Buffer), ErrOut: new(bytes.Buffer)}}, width: 80, height: 24}
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

// Two titles cut at a word to the same text are told apart by their
// ends; a title cut alone, or one that fits, keeps its start.
func TestBoardTitlesCutApart(t *testing.T) {
	yaml := &task.Task{ID: "tm-a", Title: "Fix the parser so that it reads YAML anchors", State: task.InProgress}
	json := &task.Task{ID: "tm-b", Title: "Fix the parser so that it reads JSON numbers", State: task.InProgress}
	other := &task.Task{ID: "tm-c", Title: "Write the release notes for the next version", State: task.InProgress}
	short := &task.Task{ID: "tm-d", Title: "Short", State: task.InProgress}
	m := boardOf(yaml, json, other, short)
	titles := m.titles()
	a, b := titles["tm-a"], titles["tm-b"]
	if a == b || !strings.HasPrefix(a, "Fix the") || !strings.HasSuffix(a, "…anchors") || !strings.HasSuffix(b, "…numbers") {
		t.Errorf("the clashing titles: %q and %q", a, b)
	}
	if c := titles["tm-c"]; !strings.HasPrefix(c, "Write the release") || !strings.HasSuffix(c, "…") {
		t.Errorf("a title cut alone: %q", c)
	}
	if titles["tm-d"] != "Short" {
		t.Errorf("a title that fits: %q", titles["tm-d"])
	}
	for id, title := range titles {
		room, d := m.rowRoom(boardRow{secRunning, &task.Task{ID: id}})
		if ui.Width(title) > room-ui.Width(d) {
			t.Errorf("%s: %q is wider than its %d columns", id, title, room-ui.Width(d))
		}
	}
	v := m.list(20)
	if !strings.Contains(v, a) || !strings.Contains(v, b) {
		t.Errorf("the list does not show %q and %q:\n%s", a, b, v)
	}
}
