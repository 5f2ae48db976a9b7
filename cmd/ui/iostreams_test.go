package ui

import (
	"bytes"
	"testing"
)

func TestColorDecision(t *testing.T) {
	for _, tc := range []struct {
		force, noColor string
		tty, color     bool
	}{
		{"1", "", true, true},
		{"1", "1", true, false},
		{"", "", false, false}, // go test's stdout is not a terminal
	} {
		t.Setenv("BH_FORCE_TTY", tc.force)
		t.Setenv("NO_COLOR", tc.noColor)
		s := System()
		if s.IsTTY != tc.tty || s.ColorEnabled() != tc.color {
			t.Errorf("BH_FORCE_TTY=%q NO_COLOR=%q: tty %v color %v", tc.force, tc.noColor, s.IsTTY, s.ColorEnabled())
		}
		if got := s.Red("x"); (got != "x") != tc.color {
			t.Errorf("Red(x) = %q with colour %v", got, tc.color)
		}
		s.SetColor(false)
		if got := s.Bold("x"); got != "x" {
			t.Errorf("after SetColor(false), Bold(x) = %q", got)
		}
	}
}

func TestPrintTable(t *testing.T) {
	io := &IOStreams{color: true}
	var b bytes.Buffer
	PrintTable(&b, [][]string{
		{"❓ a", io.Red("P0"), "", "title"},
		{"○ bbb", "P1", "", "other  "},
	})
	want := "❓ a   \x1b[31mP0\x1b[0m  title\n○ bbb  P1  other\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}
