package agent

import (
	"fmt"
	"unicode/utf8"
)

// MaxTextBytes caps each text field of a parsed Result (summary, details,
// questions, options, issues): they end up in the task file, which should
// stay readable however much an agent writes. The full answer stays in the
// run log.
const MaxTextBytes = 8 << 10

// CapText returns s if it fits in MaxTextBytes, else its head cut on a
// UTF-8 boundary and followed by a marker saying how much was cut, the two
// together no longer than MaxTextBytes.
func CapText(s string) string {
	if len(s) <= MaxTextBytes {
		return s
	}
	// The marker for len(s) bytes is at least as long as the real one.
	n := MaxTextBytes - len(cutMarker(len(s)))
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + cutMarker(len(s)-n)
}

func cutMarker(n int) string {
	return fmt.Sprintf("\n… (cut: %d bytes more; see the run log)", n)
}

// capText applies CapText to every text field of r.
func (r *Result) capText() {
	for _, p := range []*string{&r.Summary, &r.Details, &r.Question, &r.QuestionContext} {
		*p = CapText(*p)
	}
	for i := range r.Issues {
		r.Issues[i] = CapText(r.Issues[i])
	}
	for i := range r.Questions {
		q := &r.Questions[i]
		q.Question, q.Header, q.Default = CapText(q.Question), CapText(q.Header), CapText(q.Default)
		for j := range q.Options {
			o := &q.Options[j]
			o.Label, o.Description = CapText(o.Label), CapText(o.Description)
		}
	}
}
