package agent

import "github.com/bh-tracker/bh/agent/ask"

// MaxTextBytes caps each text field of a parsed Result (ask.MaxTextBytes).
const MaxTextBytes = ask.MaxTextBytes

// CapText cuts s to MaxTextBytes, saying how much was cut (ask.CapText).
func CapText(s string) string { return ask.CapText(s) }

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
