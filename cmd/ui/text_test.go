package ui

import "testing"

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
		if got := CutWords(c.in, c.n); got != c.want {
			t.Errorf("CutWords(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
		if w := Width(CutWords(c.in, c.n)); w > c.n {
			t.Errorf("CutWords(%q, %d) is %d wide", c.in, c.n, w)
		}
	}
}

// Tabs become spaces to the next stop of 4, and wrapping keeps a line's
// indentation: code keeps its shape.
func TestTabsKept(t *testing.T) {
	if got, want := ExpandTabs("func f() {\n\tif x {\n\t\treturn\ta\n"), "func f() {\n    if x {\n        return  a\n"; got != want {
		t.Errorf("expandTabs = %q, want %q", got, want)
	}
	got := Wrap("\tfoo(a,\tb)\n\tone two three four five six", 20)
	if want := "    foo(a,  b)\n    one two three\n    four five six"; got != want {
		t.Errorf("wrap = %q, want %q", got, want)
	}
}
