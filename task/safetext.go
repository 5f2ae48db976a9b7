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
//     are dropped, ESC among them. A CSI of digits and ; : ? ending in a
//     letter (colours, cursor moves, erasing: "\x1b[1;31m", "\x1b[2J")
//     goes whole, as its C1 form (U+009B) does; of any other sequence
//     only the control goes, and what followed it ("]0;title") stays as
//     the text it now is. Neither can take in markup around the text (the
//     web filters its whole page), and an unended sequence cannot hide
//     the words after it;
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
		i += keep(&b, s[i:])
	}
	return b.String()
}

// keep writes to b what SafeText keeps of the character (or CSI) s
// starts with, and returns its length.
func keep(b *strings.Builder, s string) int {
	r, n := utf8.DecodeRuneInString(s)
	switch {
	case r == utf8.RuneError && n == 1:
		b.WriteRune(utf8.RuneError)
	case r == 0x1b && strings.HasPrefix(s[1:], "[") && csiLen(s[2:]) > 0:
		n = 2 + csiLen(s[2:])
	case r == 0x9b:
		n += csiLen(s[n:])
	case !dropped(r):
		b.WriteString(s[:n])
	}
	return n
}

// dropped: C0 but newline and tab, DEL, C1, and the bidi embeddings,
// overrides and isolates.
func dropped(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f || r >= 0x202a && r <= 0x202e ||
		r >= 0x2066 && r <= 0x2069
}

// csiLen is the length of the parameters and final letter s starts
// with, or 0 when s starts no such CSI.
func csiLen(s string) int {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			return i + 1
		case strings.IndexByte("0123456789;:?", c) < 0:
			return 0
		}
	}
	return 0
}
