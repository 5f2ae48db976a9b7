package cmd

import (
	"errors"
	"strings"

	"github.com/bh-tracker/bh/cmd/ui"
	"github.com/bh-tracker/bh/task"
	"github.com/bh-tracker/bh/task/store"
)

// askTask asks the human on the terminal: approvals and choices on the
// picker, then the questions in words together in the editor (starting from
// --template's text). With skip, each question may be left for later.
func askTask(o *RespondOptions, s *store.Store, t *task.Task, qs []task.Question, skip bool) (*reply, error) {
	prefill, err := readTemplate(s, o.Template)
	if err != nil {
		return nil, err
	}
	rep := &reply{by: o.by}
	var words []task.Question
	var p picker
	for _, q := range qs {
		if q.Kind() == task.FreeformQuestion && !o.wordsInline {
			words = append(words, q)
			continue
		}
		if p == nil {
			p = o.Picker(o.IO)
		}
		a, err := askOne(p, q, skip)
		if errors.Is(err, ui.ErrAborted) && len(rep.answers) > 0 {
			return rep, err // the answers given so far are the caller's to keep
		}
		if err != nil {
			return nil, err
		}
		if a != nil {
			rep.answers = append(rep.answers, *a)
		}
	}
	if len(words) == 0 {
		return rep, nil
	}
	text, d, err := editText(o, s, t, words, prefill)
	if err != nil {
		return nil, err
	}
	rep.draft = d
	if text == "" {
		d.remove() // nothing in words: the picked answers still count
		rep.draft = draft{}
	}
	for _, q := range words {
		if text != "" {
			rep.answers = append(rep.answers, task.Answer{QuestionID: q.ID, Values: []string{text}})
		}
	}
	return rep, nil
}

// Picker values that no option label can be.
const (
	pickOther = "\x00other"
	pickSkip  = "\x00skip"
)

// askOne asks one question on the picker; nil means it was skipped.
func askOne(p picker, q task.Question, skip bool) (*task.Answer, error) {
	switch q.Kind() {
	case task.ApprovalQuestion:
		return askApprovalAnswer(p, q, skip)
	case task.FreeformQuestion:
		return askWords(p, q)
	}
	return askChoice(p, q, skip)
}

// askWords asks a question in words on one line; nil when left empty.
func askWords(p picker, q task.Question) (*task.Answer, error) {
	text, err := p.Input(questionTitle(q), q.Context)
	if err != nil || text == "" {
		return nil, err
	}
	return &task.Answer{QuestionID: q.ID, Values: []string{text}}, nil
}

// askApprovalAnswer asks yes or no, then a comment or the feedback.
func askApprovalAnswer(p picker, q task.Question, skip bool) (*task.Answer, error) {
	v, err := askApproval(p, questionTitle(q), q, skip)
	if err != nil || v == pickSkip {
		return nil, err
	}
	a := &task.Answer{QuestionID: q.ID, Values: []string{v}}
	if v == "yes" && q.Plan != "" {
		return a, nil // a yes's comment on a plan is the plan as edited (bh respond --edit, the board's e)
	}
	ask, hint := commentTitle, commentHint
	if v == "no" {
		ask, hint = "Feedback for the agent (optional)", "what should change"
	}
	if a.Comment, err = p.Input(ask, hint); err != nil {
		return nil, err
	}
	return a, nil
}

// askChoice asks for one option or several, "Other…" in the human's words,
// then a comment unless the words are one already.
func askChoice(p picker, q task.Question, skip bool) (*task.Answer, error) {
	title := questionTitle(q)
	values, err := pickChoices(p, title, q, skip)
	if err != nil {
		return nil, err
	}
	a := &task.Answer{QuestionID: q.ID}
	for _, v := range values {
		if v == pickOther {
			if a.Comment, err = p.Input("Your answer", title); err != nil {
				return nil, err
			}
			if strings.TrimSpace(a.Comment) == "" {
				continue // "Other…" left empty
			}
			v = task.OtherChoice
		}
		a.Values = append(a.Values, v)
	}
	if len(a.Values) == 0 || a.Values[0] == pickSkip {
		return nil, nil
	}
	if a.Comment == "" { // Other's words are the comment already
		if a.Comment, err = p.Input(commentTitle, commentHint); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// pickChoices shows a choice question's options on the picker and returns
// the values picked.
func pickChoices(p picker, title string, q task.Question, skip bool) ([]string, error) {
	opts := make([]pickOpt, 0, len(q.Options)+2)
	for _, o := range q.Options {
		label := o.Label
		if o.Description != "" {
			label += " — " + o.Description
		}
		opts = append(opts, pickOpt{Label: label, Value: o.Label})
	}
	opts = append(opts, pickOpt{Label: "Other…", Value: pickOther})
	if q.MultiSelect {
		return p.MultiSelect(title, q.Context, opts)
	}
	if skip {
		opts = append(opts, pickOpt{Label: "Skip for now", Value: pickSkip})
	}
	v, err := p.Select(title, q.Context, opts, q.Default)
	return []string{v}, err
}

// The optional comment beside a choice or a yes: enter sends the decision alone.
const (
	commentTitle = "Comment for the agent (optional)"
	commentHint  = "enter sends your choice alone"
)

// questionTitle is how a picker heads a question.
func questionTitle(q task.Question) string {
	if q.Header != "" {
		return q.Header + ": " + q.Question
	}
	return q.Question
}

func askApproval(p picker, title string, q task.Question, skip bool) (string, error) {
	if skip {
		return p.Select(title, q.Context, []pickOpt{{Label: "Yes", Value: "yes"}, {Label: "No", Value: "no"}, {Label: "Skip for now", Value: pickSkip}},
			strings.ToLower(q.Default))
	}
	ok, err := p.Confirm(title, q.Context, strings.EqualFold(q.Default, "yes"))
	if ok {
		return "yes", err
	}
	return "no", err
}
