package ui

import (
	"strings"
	"testing"
)

func TestSanitizeKeepsColoursDropsTheRest(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain\ttext\n", "plain\ttext\n"},
		{"\x1b[36mtm-a1\x1b[0m title", "\x1b[36mtm-a1\x1b[0m title"},       // bh's own colours
		{"evil\x1b]0;pwned\x07 title", "evil]0;pwned title"},               // OSC window title: its words are words
		{"clip\x1b]52;c;ZXZpbA==\x1b\\board", "clip]52;c;ZXZpbA==\\board"}, // OSC 52, ST-terminated
		{"up\x1b[2Aover\x1b[2K", "upover"},                                 // cursor and erase
		{"a\rb\x07c\x08d", "abcd"},                                         // carriage return, bell, backspace
		{"safe \u202eexe.txt\u202c", "safe exe.txt"},                       // bidi override
		{"isolate \u2066x\u2069 ok, ünïcödé 🐛", "isolate x ok, ünïcödé 🐛"}, // other text intact
		{"cut \x1b[", "cut ["},
		{"hid\x1b[8mden\x1b[28m \x1b[30;40mblack\x1b[0m \x1b[7;5mrev", "hidden black\x1b[0m rev"}, // not bh's SGRs                                             // a sequence cut short
	}
	for _, c := range cases {
		if got := sanitize(c.in, true); got != c.want {
			t.Errorf("sanitize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSanitizeWithoutColourDropsColoursToo: under NO_COLOR a task's own
// colour codes are dropped with every other escape.
func TestSanitizeWithoutColourDropsColoursToo(t *testing.T) {
	in := "\x1b[36mtm-a1\x1b[0m a \x1b[1;31mred\x1b[m word\x1b]0;t\x07"
	if got := sanitize(in, false); got != "tm-a1 a red word]0;t" {
		t.Errorf("sanitize without colour = %q", got)
	}
}

// TestSafeWriterDecodesRunes: the C1 controls (U+009B is a CSI to many
// terminals) go as the C0 ones do, a character cut by one write passes
// whole with the next, and a byte that is no UTF-8 shows as U+FFFD.
func TestSafeWriterDecodesRunes(t *testing.T) {
	var b strings.Builder
	color := true
	w := newSafeWriter(&b, &color)
	for _, p := range []string{"\x1b[1mbold\x1b[0m \u009b2Jc1 \u009d0;t\u009c", "caf\xc3", "\xa9 \xff.\n"} {
		if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", p, n, err)
		}
	}
	if got, want := b.String(), "\x1b[1mbold\x1b[0m c1 0;tcafé \ufffd.\n"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}
