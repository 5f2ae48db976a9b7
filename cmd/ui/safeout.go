package ui

import (
	"io"
)

// safeWriter passes human output to a terminal without what text from a
// task file or an agent could use against it: escape sequences other than
// colours (OSC sets window titles, clipboards and links; CSI moves the
// cursor), control characters other than tab and newline, and bidi
// overrides that make text read other than it is. bh's own colours are SGR
// sequences, which pass while colour is on (color points at the one
// decision, IOStreams.color; nil is on); with colour off (NO_COLOR,
// --no-color, no terminal) they are dropped too, the task's own among them.
// JSON output needs none of this: it escapes them.
type safeWriter struct {
	w     io.Writer
	color *bool
}

// Safe is w behind the same filter, colours kept: for text the caller
// lays out before it reaches the terminal.
func Safe(w io.Writer) io.Writer { return safeWriter{w, nil} }

// Clean drops from text what safeWriter drops from output.
func Clean(text string) string { return string(sanitize([]byte(text), true)) }

func (s safeWriter) Write(p []byte) (int, error) {
	if _, err := s.w.Write(sanitize(p, s.color == nil || *s.color)); err != nil {
		return 0, err
	}
	return len(p), nil
}

func sanitize(p []byte, sgr bool) []byte {
	k := 0
	for k < len(p) && plain(p[k]) {
		k++
	}
	if k == len(p) {
		return p // most output: spared a copy byte by byte
	}
	out := make([]byte, k, len(p))
	copy(out, p)
	for i := k; i < len(p); i++ {
		switch c := p[i]; {
		case c == 0x1b:
			i = escape(p, i, &out, sgr)
		case c < 0x20 && c != '\n' && c != '\t', c == 0x7f:
			// dropped
		case c == 0xe2 && i+2 < len(p) && bidi(p[i+1], p[i+2]):
			i += 2
		default:
			out = append(out, c)
		}
	}
	return out
}

// plain reports whether sanitize keeps c as it is, whatever follows it.
func plain(c byte) bool {
	return c >= 0x20 && c != 0x7f && c != 0x1b && c != 0xe2 || c == '\n' || c == '\t'
}

// escape keeps the SGR sequence starting at p[i] (when sgr) or drops
// whatever escape it is; it returns the index of its last byte.
func escape(p []byte, i int, out *[]byte, sgr bool) int {
	if i+1 >= len(p) {
		return i
	}
	switch p[i+1] {
	case '[': // CSI: parameters, then a final byte in 0x40..0x7e
		j := i + 2
		for j < len(p) && (p[j] < 0x40 || p[j] > 0x7e) {
			j++
		}
		if sgr && j < len(p) && p[j] == 'm' {
			*out = append(*out, p[i:j+1]...)
		}
		return min(j, len(p)-1)
	case ']', 'P', '_', '^': // OSC, DCS, APC, PM: up to BEL or ESC \
		for j := i + 2; j < len(p); j++ {
			if p[j] == 0x07 {
				return j
			}
			if p[j] == 0x1b && j+1 < len(p) && p[j+1] == '\\' {
				return j + 1
			}
		}
		return len(p) - 1
	}
	return i + 1
}

// bidi reports whether E2 b1 b2 encodes U+202A..U+202E or U+2066..U+2069.
func bidi(b1, b2 byte) bool {
	return b1 == 0x80 && b2 >= 0xaa && b2 <= 0xae || b1 == 0x81 && b2 >= 0xa6 && b2 <= 0xa9
}
