package ui

import (
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/bh-tracker/bh/task"
)

// safeWriter passes human output to a terminal through the one filter of
// shown text, task.SafeText (control characters but tab and newline, ESC
// among them, and bidi overrides). bh's own colours are SGR sequences:
// those bh writes (see sgrLen) pass while colour is on (color points at
// the one decision, IOStreams.color; nil is on); with colour off
// (NO_COLOR, --no-color, no terminal) they are dropped too, the task's own
// among them. A character cut in two by a write waits for its end in the
// next. JSON output needs none of this: it escapes them.
type safeWriter struct {
	w     io.Writer
	color *bool
	cut   *carry
}

// carry is the start of a character the last write cut; writes from two
// goroutines (the runs of a worker -j 2 reporting) take turns.
type carry struct {
	mu sync.Mutex
	b  []byte
}

func newSafeWriter(w io.Writer, color *bool) safeWriter { return safeWriter{w, color, new(carry)} }

// Safe is w behind the same filter, colours kept: for text the caller
// lays out before it reaches the terminal.
func Safe(w io.Writer) io.Writer { return newSafeWriter(w, nil) }

// Clean drops from text what safeWriter drops from output.
func Clean(text string) string { return sanitize(text, true) }

func (s safeWriter) Write(p []byte) (int, error) {
	s.cut.mu.Lock()
	defer s.cut.mu.Unlock()
	text := string(s.cut.b) + string(p)
	s.cut.b = s.cut.b[:0]
	if i := cutRune(text); i < len(text) {
		s.cut.b, text = append(s.cut.b, text[i:]...), text[:i]
	}
	if _, err := io.WriteString(s.w, sanitize(text, s.color == nil || *s.color)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// cutRune is where an unfinished character at the end of text starts, or
// len(text).
func cutRune(text string) int {
	for i := len(text) - 1; i >= 0 && i >= len(text)-utf8.UTFMax; i-- {
		if utf8.RuneStart(text[i]) {
			if !utf8.FullRuneInString(text[i:]) {
				return i
			}
			break
		}
	}
	return len(text)
}

// sanitize is text through task.SafeText, its SGR sequences (colours)
// kept when sgr.
func sanitize(text string, sgr bool) string {
	if !sgr || !strings.Contains(text, "\x1b[") {
		return task.SafeText(text)
	}
	var b strings.Builder
	for {
		i := strings.Index(text, "\x1b[")
		if i < 0 {
			b.WriteString(task.SafeText(text))
			return b.String()
		}
		b.WriteString(task.SafeText(text[:i]))
		text = text[i:]
		if n := sgrLen(text); n > 0 {
			b.WriteString(text[:n])
			text = text[n:]
			continue
		}
		j := len(text) // not a colour: SafeText judges it, up to the next ESC [
		if k := strings.Index(text[2:], "\x1b["); k >= 0 {
			j = 2 + k
		}
		b.WriteString(task.SafeText(text[:j]))
		text = text[j:]
	}
}

// sgrLen is the length of the SGR sequence text starts with (ESC [
// parameters m), or 0: 0 too for an SGR bh never writes. bh paints with
// bold, faint and five colours (IOStreams.paint, through fatih/color,
// whose resets are 0 and 22); the terminal cannot tell those from the
// same bytes in an agent's text, but an agent's conceal (8), black or
// white (which hide words on a terminal of that background), backgrounds,
// blinking or reverse are not bh's, and SafeText drops them whole.
func sgrLen(text string) int {
	j := 2
	for j < len(text) && (text[j] >= '0' && text[j] <= '9' || text[j] == ';') {
		j++
	}
	if j == len(text) || text[j] != 'm' {
		return 0
	}
	for _, p := range strings.Split(text[2:j], ";") {
		switch p {
		case "", "0", "1", "2", "22", "31", "32", "33", "35", "36", "39":
		default:
			return 0
		}
	}
	return j + 1
}
