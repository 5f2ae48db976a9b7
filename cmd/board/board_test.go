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
