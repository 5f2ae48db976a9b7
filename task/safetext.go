package task

import (
	"strings"
	"unicode/utf8"
)

// SafeText is text an agent (or a task file) wrote, made fit to show a
// human: on a terminal, in a commit message, a notification or a page.
// It is the one filter for all of them; each decision below holds
// everywhere. Runes are decoded, not bytes:
//   - C0 controls (U+0000–U+001F) but newline and tab, DEL (U+007F) and
//     C1 controls (U+0080–U+009F, U+009B being a CSI to many terminals)
//     are dropped;
//   - an escape sequence is dropped whole, not only its ESC (or C1
//     introducer): CSI up to its final byte, OSC, DCS, SOS, PM and APC up
//     to their terminator (BEL or ST) or the end of the line, any other
//     ESC with the character after it. "\x1b]0;title\x07" leaves nothing
//     behind rather than "]0;title";
//   - a byte that is not UTF-8 becomes U+FFFD: a terminal reading Latin-1
//     would take 0x9B alone for a CSI;
//   - the bidi embeddings, overrides and isolates (U+202A–U+202E,
//     U+2066–U+2069) are dropped: they make text read other than it is
//     ("invoice\u202Efdp.exe"). Other format characters (marks, joiners)
//     stay: emoji and scripts need them, and they reorder nothing.
//
// Plain text (most of it) is returned as it is, without a copy.
func SafeText(s string) string {
	k := 0
	for k < len(s) && (s[k] >= 0x20 && s[k] < 0x7f || s[k] == '\n' || s[k] == '\t') {
		k++
	}
	if k == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:k])
	for i := k; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteRune(utf8.RuneError)
		case r == 0x1b:
			n = escapeLen(s[i:])
		case r == 0x9b: // C1 CSI
			n += csiLen(s[i+n:])
		case r == 0x90 || r == 0x98 || r == 0x9d || r == 0x9e || r == 0x9f: // C1 DCS, SOS, OSC, PM, APC
			n += stringLen(s[i+n:])
		case r < 0x20 && r != '\n' && r != '\t', r >= 0x7f && r <= 0x9f, bidiControl(r):
			// dropped
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// escapeLen is the length of the escape sequence at the start of s (s[0]
// is ESC).
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		return 2 + csiLen(s[2:])
	case ']', 'P', 'X', '^', '_':
		return 2 + stringLen(s[2:])
	}
	if s[1] < 0x20 || s[1] >= 0x7f {
		return 1 // no sequence: the next character is judged on its own
	}
	return 2
}

// csiLen is the length of a CSI's parameters and final byte: it ends at
// its final byte (0x40–0x7E), or before anything a CSI cannot hold.
func csiLen(s string) int {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x40 && c <= 0x7e:
			return i + 1
		case c < 0x20 || c > 0x7e:
			return i
		}
	}
	return len(s)
}

// stringLen is the length of a control string's body and terminator: up
// to BEL, ESC \ or U+009C, or up to (not with) a newline, so that an
// unterminated one cannot swallow the lines after it.
func stringLen(s string) int {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case strings.HasPrefix(s[i:], "\u009c"):
			return i + len("\u009c")
		case s[i] == '\n':
			return i
		}
	}
	return len(s)
}

// bidiControl: the embeddings, overrides and isolates of Unicode's bidi
// algorithm.
func bidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}
