package ui

import (
	"testing"
	"time"
)

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

func TestRelTime(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		ago  time.Duration
		want string
	}{
		{-time.Hour, "just now"}, // a clock ahead of ours
		{0, "just now"},
		{59 * time.Second, "just now"},
		{time.Minute, "1 minute ago"},
		{90 * time.Second, "1 minute ago"},
		{59 * time.Minute, "59 minutes ago"},
		{time.Hour, "1 hour ago"},
		{2*time.Hour + 59*time.Minute, "2 hours ago"},
		{23 * time.Hour, "23 hours ago"},
		{24 * time.Hour, "1 day ago"},
		{29 * 24 * time.Hour, "29 days ago"},
		{30 * 24 * time.Hour, "1 month ago"},
		{200 * 24 * time.Hour, "6 months ago"},
		{365 * 24 * time.Hour, "1 year ago"},
		{3 * 365 * 24 * time.Hour, "3 years ago"},
	} {
		if got := RelTime(now, now.Add(-tc.ago)); got != tc.want {
			t.Errorf("RelTime(now-%v) = %q, want %q", tc.ago, got, tc.want)
		}
	}
}
