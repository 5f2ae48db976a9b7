package web

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bh-tracker/bh/task"
)

// kept is what a refused answer to question qid had in field name
// (formAnswers names the fields).
func (v *taskView) kept(qid, name string) ([]string, bool) {
	if vals, ok := v.Kept[name+"."+qid]; ok {
		return vals, true
	}
	if q := v.Kept["q"]; len(q) == 1 && q[0] == qid {
		vals, ok := v.Kept[name]
		return vals, ok
	}
	return nil, false
}

// KeptText is what question qid's field name holds: what a refused
// answer had typed there, or else the question's default (for its text).
func (v *taskView) KeptText(qid, name string) string {
	if v.Kept != nil {
		vals, _ := v.kept(qid, name)
		if len(vals) == 0 {
			return ""
		}
		return vals[0]
	}
	if name == "text" {
		return v.defaultOf(qid)
	}
	return ""
}

// KeptPick says whether value is picked for question qid: by a refused
// answer, or else as the question's default.
func (v *taskView) KeptPick(qid, value string) bool {
	if v.Kept != nil {
		vals, _ := v.kept(qid, "answer")
		return slices.Contains(vals, value)
	}
	d := v.defaultOf(qid)
	return d != "" && d == value
}

// Retyped says whether question qid's fields come from a refused answer.
func (v *taskView) Retyped(qid string) bool {
	_, ok := v.kept(qid, "answer")
	_, text := v.kept(qid, "text")
	_, other := v.kept(qid, "other")
	return ok || text || other
}

// defaultOf is the default answer of question qid, if it waits.
func (v *taskView) defaultOf(qid string) string {
	for _, q := range v.Questions {
		if q.Q.ID == qid && q.Waits {
			return q.Q.Default
		}
	}
	return ""
}

// Typed is what a refused answer had for question qid, in words: for a
// question someone answered meanwhile, so that nothing typed is lost.
func (v *taskView) Typed(qid string) string {
	var out []string
	for _, name := range []string{"answer", "other", "text", "comment"} {
		vals, _ := v.kept(qid, name)
		for _, s := range vals {
			if strings.TrimSpace(s) != "" && s != "other" {
				out = append(out, s)
			}
		}
	}
	return strings.Join(out, "\n")
}

// plain is err in the page's words: a question by its number on the page,
// never its id, and whoever answered before by their one name.
func (v *taskView) plain(err error) string {
	var ae *task.AnswerError
	if !errors.As(err, &ae) {
		return err.Error()
	}
	reason := ae.Reason
	if ae.AnsweredBy != "" {
		reason = "already answered by " + v.Who(ae.AnsweredBy) + " at " + ae.AnsweredAt.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	for _, q := range v.Questions {
		if q.Q.ID == ae.QuestionID && ae.QuestionID != "" {
			return fmt.Sprintf("Question %d: %s", q.N, reason)
		}
	}
	return strings.ToUpper(reason[:1]) + reason[1:]
}

// Who is the one name of who answered (by as recorded): you, with the
// channel beside it.
func (v *taskView) Who(by string) string { return task.Who(by, v.Me) }

// me is the user this server answers as (Options.By without its "web:").
func (s *Server) me() string { return strings.TrimPrefix(s.o.By, "web:") }

// named is err with whoever answered before by their one name, for a
// message that is no page (a notification's button, bh serve's warnings).
func (s *Server) named(err error) error {
	if ae := (*task.AnswerError)(nil); errors.As(err, &ae) && ae.AnsweredBy != "" {
		ae.AnsweredBy = task.Who(ae.AnsweredBy, s.me())
	}
	return err
}

// QName is question qid as the page calls it: its number in this round,
// else its header or first line; never its id.
func (v *taskView) QName(qid string) string {
	for _, q := range v.Questions {
		if q.Q.ID == qid && qid != "" {
			return fmt.Sprintf("question %d", q.N)
		}
	}
	for _, q := range v.Task.Questions {
		if q.ID == qid && qid != "" {
			return questionName(q)
		}
	}
	return ""
}
