package task

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// TrimAnswer is the one rule for the white space around a human's words:
// blank lines before them and white space after them (an editor's or
// echo's last newline) are dropped, and a one-line answer loses its leading
// spaces too. In text of several lines everything between is the human's
// and kept as given: the first line's indentation, tabs, blank lines.
func TrimAnswer(s string) string {
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	for {
		line, rest, ok := strings.Cut(s, "\n")
		if !ok {
			return strings.TrimSpace(s)
		}
		if strings.TrimSpace(line) != "" {
			return s
		}
		s = rest
	}
}

// fit checks an answer against its question and returns the question with
// the answer filled in (labels spelt as the options spell them), or why
// the answer does not fit.
func fit(q Question, a Answer) (Question, string) {
	var vals []string
	for _, v := range a.Values {
		if v = TrimAnswer(v); v != "" {
			vals = append(vals, v)
		}
	}
	q.Comment = TrimAnswer(a.Comment)
	if reason := fitComments(&q, a.Comments, vals); reason != "" {
		return q, reason
	}
	switch q.Kind() {
	case ApprovalQuestion:
		return fitApproval(q, vals)
	case ChoiceQuestion:
		return fitChoice(q, vals)
	}
	if len(vals) == 0 {
		return q, "empty answer"
	}
	if len(vals) > 1 {
		return q, "a freeform question is answered with one text, not " + fmt.Sprint(len(vals))
	}
	q.Answer = vals
	return q, ""
}

// fitComments checks a reviewer's comments on lines: each with its file, a
// line from 1 and words, beside a no (a yes lands the change, and no agent
// would read them).
func fitComments(q *Question, cs []LineComment, vals []string) string {
	if len(cs) == 0 {
		return ""
	}
	if q.Kind() != ApprovalQuestion || len(vals) != 1 || !strings.EqualFold(strings.TrimSpace(vals[0]), "no") {
		return "comments on lines go with a no, as feedback for the agent"
	}
	q.Comments = make([]LineComment, len(cs))
	for i, c := range cs {
		c.Path, c.Text = strings.TrimSpace(c.Path), TrimAnswer(c.Text)
		switch {
		case c.Path == "":
			return "a comment on a line needs its file"
		case c.Line < 1:
			return fmt.Sprintf("a comment on %s needs a line number from 1, not %d", c.Path, c.Line)
		case c.Text == "":
			return fmt.Sprintf("the comment on %s:%d has no words", c.Path, c.Line)
		}
		q.Comments[i] = c
	}
	return ""
}

// fitApproval checks that vals say yes or no.
func fitApproval(q Question, vals []string) (Question, string) {
	if len(vals) != 1 {
		return q, "an approval is answered yes or no"
	}
	v := strings.ToLower(strings.TrimSpace(vals[0]))
	if v != "yes" && v != "no" {
		return q, fmt.Sprintf("%q is not an approval: answer yes or no", vals[0])
	}
	q.Answer = []string{v}
	return q, ""
}

// fitChoice checks that vals pick options of q, as many as it allows.
func fitChoice(q Question, vals []string) (Question, string) {
	if len(vals) == 0 {
		return q, "pick " + choices(q)
	}
	var picked []string
	for _, v := range vals {
		label, ok := option(q, strings.TrimSpace(v))
		if !ok {
			return q, fmt.Sprintf("%q is not an option: pick %s", v, choices(q))
		}
		if !slices.Contains(picked, label) {
			picked = append(picked, label)
		}
	}
	if len(picked) > 1 && !q.MultiSelect {
		return q, fmt.Sprintf("pick one option, not %d (%s)", len(picked), strings.Join(picked, ", "))
	}
	if slices.Contains(picked, OtherChoice) && q.Comment == "" {
		return q, "an \"other\" choice needs your own words beside it"
	}
	q.Answer = picked
	return q, ""
}

// option finds the option a value names, case aside. "other" is the free
// choice, unless an option of the question is itself labelled so.
func option(q Question, v string) (string, bool) {
	for _, o := range q.Options {
		if strings.EqualFold(strings.TrimSpace(o.Label), v) {
			return o.Label, true
		}
	}
	if strings.EqualFold(v, OtherChoice) {
		return OtherChoice, true
	}
	return "", false
}

// choices lists what a choice question accepts, for error messages.
func choices(q Question) string {
	what := "one of: "
	if q.MultiSelect {
		what = "one or more of: "
	}
	return what + strings.Join(q.Labels(), ", ") + " (or other, with your own words)"
}

// roundText is the flat humanResponse: every answer of the current round
// (the questions asked since the oldest one pending before this answer).
// Several answers are one line each, unless they all say the same.
func roundText(t *Task, pending []pendingQ, done map[int]Question) string {
	qs := round(t, pending, done)
	if len(qs) == 0 {
		return ""
	}
	first := qs[0].AnswerText()
	var lines []string
	same := true
	for _, q := range qs {
		text := q.AnswerText()
		same = same && text == first
		label := cmp.Or(q.Header, strings.Join(strings.Fields(q.Question), " "), q.ID)
		lines = append(lines, label+": "+text)
	}
	if same {
		return first
	}
	return strings.Join(lines, "\n")
}

// round is the questions answered in the current round.
func round(t *Task, pending []pendingQ, done map[int]Question) []Question {
	since := slices.MinFunc(pending, func(a, b pendingQ) int { return a.q.AskedAt.Compare(b.q.AskedAt) }).q.AskedAt
	var qs []Question
	if pending[0].i < 0 || since.IsZero() {
		// The flat question is a round of its own; without times (a file
		// written by hand) the round is what was answered now.
		for k := range pending {
			if q, ok := done[k]; ok {
				qs = append(qs, q)
			}
		}
		return qs
	}
	for _, q := range t.Questions {
		if q.Status == QuestionAnswered && !q.AskedAt.Before(since) {
			qs = append(qs, q)
		}
	}
	return qs
}
