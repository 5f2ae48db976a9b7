package task

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSafeText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain\ttext\n", "plain\ttext\n"},
		{"ünïcödé 🐛 👩‍💻 مرحبا", "ünïcödé 🐛 👩‍💻 مرحبا"},                              // joiners and scripts intact
		{"evil\x1b]0;pwned\x07 title", "evil]0;pwned title"},                        // OSC: its ESC and BEL go, its words stay words
		{"up\x1b[2Aover\x1b[2K \x1b[1;31mred\x1b[m \x1b[?25lhid", "upover red hid"}, // CSIs of digits, whole
		{"cut \x1b[12", "cut [12"},
		{"a\rb\x07c\x08d\x7fe", "abcde"}, // CR, BEL, BS, DEL
		{"c1 \u009b2Jcsi \u0085nel \u009d0;t\u009c end", "c1 csi nel 0;t end"},
		{"bad \xff\xfe bytes \xc3", "bad \ufffd\ufffd bytes \ufffd"},
		{"safe \u202eexe.txt\u202c, \u2066x\u2069", "safe exe.txt, x"},
		{"<p>\x1b[</p>", "<p>[</p>"}, // markup after it is never taken into a sequence
	}
	for _, c := range cases {
		if got := SafeText(c.in); got != c.want {
			t.Errorf("SafeText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzSafeText: whatever the text, what comes out is valid UTF-8 with no
// control character but newline and tab and no bidi control, and
// filtering it again changes nothing.
func FuzzSafeText(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b]0;t\x07", "\u009b31m", "\xff", "\u202e", "a\x1b", "\x1b[\u009b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := SafeText(in)
		if bad := unsafeIn(out); bad != "" {
			t.Fatalf("SafeText(%q) = %q keeps %s", in, out, bad)
		}
		if again := SafeText(out); again != out {
			t.Fatalf("SafeText is not idempotent on %q: %q then %q", in, out, again)
		}
	})
}

// unsafeIn names the first character of s that no human should be shown,
// or is "": checked rune by rune, apart from SafeText's own code.
func unsafeIn(s string) string {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\ufffd"):
			return "an invalid byte"
		case r < 0x20 && r != '\n' && r != '\t', r >= 0x7f && r <= 0x9f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return fmt.Sprintf("%U", r)
		}
	}
	return ""
}
